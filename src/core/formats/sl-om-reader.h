/* sl-om-reader.h: Ascend offline models (.om) into the graph model
 *
 * An OM file is a 256-byte header, a partition table and the partitions;
 * the model-definition partition is a GE IR ModelDef, read as an AIR file
 * is. See the .c file for the layout and what is shown.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

#include "sl-graph.h"

G_BEGIN_DECLS

#define SL_OM_HEADER_SIZE 256

gboolean  sl_om_sniff   (const guint8  *data,
                         gsize          size);
SlGraph  *sl_om_decode  (const guint8  *data,
                         gsize          size,
                         const char    *path,
                         GError       **error);

G_END_DECLS
