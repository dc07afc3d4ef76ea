/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"
#include "sl-cli.h"
int sl_cli_detect (int argc, char **argv) { return 1; }
