/* sl-mindspore-dump-name.h: the file names of MindSpore's own dumps
 *
 * {op_type}.{op_name}.{task_id}.{stream_id}.{timestamp}.{input|output}.
 * {index}.{format}[.{dtype}].npy, where op_name holds the scope with "/"
 * written as "--" and may itself contain dots, so the name is read from
 * both ends. Two dumps are paired by op name, input or output and index;
 * several files of one key (iterations) pair in timestamp order.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct {
  char     *file_name;
  char     *op_type;
  char     *op_name;     /* as in the file name */
  char     *scope;       /* op_name with "--" turned back into "/" */
  guint64   task_id;
  guint64   stream_id;
  guint64   timestamp;
  gboolean  output;      /* FALSE for an input */
  guint     index;
  char     *format;      /* DefaultFormat, NC1HWC0, ... */
  char     *dtype;       /* or NULL when the name has none */
  char     *key;         /* op_name.input|output.index */
} SlMindsporeDumpName;

SlMindsporeDumpName *sl_mindspore_dump_name_parse (const char          *file_name);
void                 sl_mindspore_dump_name_free  (SlMindsporeDumpName *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlMindsporeDumpName, sl_mindspore_dump_name_free)

typedef struct {
  const SlMindsporeDumpName *npu;
  const SlMindsporeDumpName *bench;   /* NULL: none on the benchmark side */
} SlMindsporeDumpPair;

/* Pairs two lists of parsed names (SlMindsporeDumpName, not owned). The
 * result holds every NPU name in the order given, paired or not, then
 * the benchmark names left over with npu %NULL. */
GArray *sl_mindspore_dump_names_pair (GPtrArray *npu,
                                      GPtrArray *bench);

G_END_DECLS
