/* sl-proto-shape.h: whether protobuf bytes have the shape of a graph message
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* @complete: whether @data is the whole message, not only its head */
gboolean sl_proto_shape_is_mindspore_graph (const guint8 *data,
                                            gsize         len,
                                            gboolean      complete);
gboolean sl_proto_shape_is_mindspore_model (const guint8 *data,
                                            gsize         len,
                                            gboolean      complete);
gboolean sl_proto_shape_is_graph_def       (const guint8 *data,
                                            gsize         len,
                                            gboolean      complete);
gboolean sl_proto_shape_is_saved_model     (const guint8 *data,
                                            gsize         len,
                                            gboolean      complete);
gboolean sl_proto_shape_is_onnx_model      (const guint8 *data,
                                            gsize         len,
                                            gboolean      complete);
gboolean sl_proto_shape_is_mindir_model    (const guint8 *data,
                                            gsize         len,
                                            gboolean      complete);
gboolean sl_proto_shape_is_ge_model        (const guint8 *data,
                                            gsize         len,
                                            gboolean      complete);
gboolean sl_proto_shape_is_om              (const guint8 *data,
                                            gsize         len,
                                            gboolean      complete);

const char *sl_proto_shape_get_graph_format  (const guint8 *data,
                                              gsize         len,
                                              gboolean      complete);
char       *sl_proto_shape_dup_graph_formats (void);

G_END_DECLS
