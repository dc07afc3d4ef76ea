/* sl-yajl-error.h: what yajl says of damaged JSON, and where it lies
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>
#include <yajl/yajl_parse.h>

G_BEGIN_DECLS

char  *sl_yajl_error_dup_reason (yajl_handle          yajl,
                                 const unsigned char *data,
                                 gsize                length);
gsize  sl_yajl_error_offset     (yajl_handle          yajl,
                                 const char          *reason,
                                 const unsigned char *data,
                                 gsize                length,
                                 gssize               value_end);

G_END_DECLS
