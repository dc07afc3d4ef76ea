/* sl-tensor-mapping.h: names renamed between two dumps
 *
 * msprobe's data mapping file: a YAML or JSON object whose keys are
 * names on the NPU side and whose values are the names on the benchmark
 * side. A name is a whole tensor key (Functional.a.0.forward.input.0),
 * an entry (Functional.a.0.forward) or an API or module
 * (Functional.a, Module.layer1.Linear): the longest that applies wins.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define SL_TENSOR_MAPPING_MAX_SIZE (16 * 1024 * 1024)

#define SL_TYPE_TENSOR_MAPPING (sl_tensor_mapping_get_type ())
G_DECLARE_FINAL_TYPE (SlTensorMapping, sl_tensor_mapping, SL, TENSOR_MAPPING, GObject)

SlTensorMapping *sl_tensor_mapping_new            (void);
/* JSON when the text starts with '{', otherwise YAML "a: b" lines.
 * Lines that are not a mapping are an error naming the line. */
SlTensorMapping *sl_tensor_mapping_new_from_data  (const char       *text,
                                                   gsize             length,
                                                   GError          **error);
SlTensorMapping *sl_tensor_mapping_new_from_file  (const char       *path,
                                                   GError          **error);
void             sl_tensor_mapping_add            (SlTensorMapping  *self,
                                                   const char       *npu_name,
                                                   const char       *bench_name);
guint            sl_tensor_mapping_get_size       (SlTensorMapping  *self);
/* The benchmark name of @name, or %NULL when it is not renamed. */
const char      *sl_tensor_mapping_lookup         (SlTensorMapping  *self,
                                                   const char       *name);

G_END_DECLS
