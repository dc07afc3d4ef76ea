/* sl-msprobe-dump.h: one msprobe dump (a rank folder with dump.json)
 *
 * dump.json lists every API or module call with its input_args,
 * input_kwargs, output and parameters. Each tensor record becomes an
 * SlMsprobeTensor with msprobe's key, in the order of the file, which is
 * the order of execution. construct.json and stack.json give the parent
 * module and the Python stack of each call. Damaged records are skipped
 * and reported; data_name values that would lead out of the folder are
 * refused.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* dump.json of a real model stays far below this; larger is refused. */
#define SL_MSPROBE_DUMP_MAX_SIZE   (512 * 1024 * 1024)
/* construct.json and stack.json. */
#define SL_MSPROBE_SIDE_MAX_SIZE   (256 * 1024 * 1024)
/* Nesting of tuples and lists in an argument list. */
#define SL_MSPROBE_MAX_DEPTH       16
#define SL_MSPROBE_MAX_DIMS        64

typedef enum {
  SL_MSPROBE_INPUT,
  SL_MSPROBE_OUTPUT,
  SL_MSPROBE_PARAMETER,
} SlMsprobeIo;

typedef struct {
  char        *key;          /* Functional.relu.0.forward.input.0 */
  char        *fuzzy_key;    /* the same without the call number */
  char        *entry;        /* Functional.relu.0.forward */
  char        *api_type;     /* Functional, Tensor, Module, ... */
  char        *api;          /* relu; conv2.Conv2d for a module */
  gint64       call;         /* -1 when the entry has no call number */
  gboolean     backward;
  SlMsprobeIo  io;
  char        *index;        /* "0", "1.0" in a tuple, a kwarg's name */
  guint        order;        /* position in execution order */

  char        *dtype;        /* as written: torch.float32, Float32, ... */
  guint        n_dims;
  gint64      *shape;
  gboolean     has_stats;
  double       max, min, mean, norm;
  int          requires_grad; /* -1 when not recorded */
  char        *md5;          /* CRC-32 in hex (CRC mode), or NULL */
  char        *data_name;    /* as written, or NULL */
  char        *data_path;    /* inside dump_tensor_data, or NULL when none or refused */
} SlMsprobeTensor;

#define SL_TYPE_MSPROBE_DUMP (sl_msprobe_dump_get_type ())
G_DECLARE_FINAL_TYPE (SlMsprobeDump, sl_msprobe_dump, SL, MSPROBE_DUMP, GObject)

/* @path is dump.json, its rank folder, or a dump root: the first
 * step<N>/rank<N>/dump.json under it is read. Returns %NULL only when no
 * dump.json can be read; damage is in the problems. */
SlMsprobeDump         *sl_msprobe_dump_open           (const char     *path,
                                                       GError        **error);
/* dump.json from memory (tests, fuzzing); @folder is where data_name
 * files would be, or %NULL. */
SlMsprobeDump         *sl_msprobe_dump_new_from_data  (const char     *path,
                                                       const char     *folder,
                                                       const char     *data,
                                                       gsize           length);
const char            *sl_msprobe_dump_get_path       (SlMsprobeDump  *self);
const char            *sl_msprobe_dump_get_task       (SlMsprobeDump  *self);
const char            *sl_msprobe_dump_get_level      (SlMsprobeDump  *self);
const char            *sl_msprobe_dump_get_framework  (SlMsprobeDump  *self);
guint                  sl_msprobe_dump_get_n_tensors  (SlMsprobeDump  *self);
const SlMsprobeTensor *sl_msprobe_dump_get_tensor     (SlMsprobeDump  *self,
                                                       guint           index);
/* The parent module of an entry (construct.json), or %NULL. */
const char            *sl_msprobe_dump_get_parent     (SlMsprobeDump  *self,
                                                       const char     *entry);
/* The module path from the outermost module down to @entry's parent,
 * joined by " > ", or %NULL. */
char                  *sl_msprobe_dump_dup_module_path (SlMsprobeDump *self,
                                                       const char     *entry);
/* The Python stack of an entry (stack.json), one frame a line, or %NULL. */
const char            *sl_msprobe_dump_get_stack      (SlMsprobeDump  *self,
                                                       const char     *entry);
/* SlProblem, in the order found. */
GPtrArray             *sl_msprobe_dump_get_problems   (SlMsprobeDump  *self);

/* Splits an entry name into its parts; %FALSE when it is not one. */
gboolean               sl_msprobe_parse_entry         (const char     *entry,
                                                       char          **api_type,
                                                       char          **api,
                                                       gint64         *call,
                                                       gboolean       *backward);
const char            *sl_msprobe_io_to_string        (SlMsprobeIo     io);

G_END_DECLS
