/* sl-torch-tensor.c: the zip of a .pt file and a pickle machine that
 * only rebuilds one tensor
 *
 * The machine has no way to call anything: GLOBAL resolves to one of
 * three known names or is refused, and REDUCE only builds the tensor or
 * an empty OrderedDict from them. Values live in an arena freed at the
 * end, so memo references (BINGET) share values without reference
 * counts, and nothing walks values recursively.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n-lib.h>

#include "sl-input-file.h"
#include "sl-torch-tensor.h"
#include "sl-zip-archive.h"

#define MAX_STACK    256
#define MAX_MEMO     1024
#define MAX_VALUES   4096
#define MAX_STRING   256

G_DEFINE_QUARK (sl-torch-tensor-error-quark, sl_torch_tensor_error)

typedef struct {
  const char *class_name;   /* torch.<class_name> */
  const char *dtype;
  guint       item_size;
} StorageType;

static const StorageType storage_types[] = {
  { "FloatStorage", "float32", 4 },
  { "DoubleStorage", "float64", 8 },
  { "HalfStorage", "float16", 2 },
  { "BFloat16Storage", "bfloat16", 2 },
  { "LongStorage", "int64", 8 },
  { "IntStorage", "int32", 4 },
  { "ShortStorage", "int16", 2 },
  { "CharStorage", "int8", 1 },
  { "ByteStorage", "uint8", 1 },
  { "BoolStorage", "bool", 1 },
};

typedef enum {
  V_MARK,
  V_NONE,
  V_BOOL,
  V_INT,
  V_STR,
  V_TUPLE,
  V_REBUILD,        /* torch._utils._rebuild_tensor_v2 */
  V_STORAGE_TYPE,   /* torch.FloatStorage, ... */
  V_ORDERED_DICT,   /* collections.OrderedDict */
  V_STORAGE,        /* a persistent id: ('storage', type, key, location, numel) */
  V_DICT,           /* empty */
  V_TENSOR,
} Kind;

typedef struct Value Value;
struct Value {
  Kind               kind;
  gint64             i;
  char              *s;
  GPtrArray         *items;     /* Value, not owned */
  const StorageType *storage;
  const Value       *args;      /* V_TENSOR: its arguments */
};

typedef struct {
  const guint8 *data;
  gsize         length;
  gsize         pos;
  gsize         op_at;
  GPtrArray    *arena;          /* owns every Value */
  Value        *stack[MAX_STACK];
  guint         depth;
  Value        *memo[MAX_MEMO];
  guint         memo_next;
  Value        *result;
  GError       *error;
} Machine;

struct _SlTorchTensor
{
  GObject       parent_instance;
  GBytes       *file;
  GBytes       *storage;
  SlTorchTensorView  view;
};

G_DEFINE_FINAL_TYPE (SlTorchTensor, sl_torch_tensor, G_TYPE_OBJECT)

static void
value_free (gpointer data)
{
  Value *value = data;

  g_free (value->s);
  g_clear_pointer (&value->items, g_ptr_array_unref);
  g_free (value);
}

static gboolean
refuse (Machine    *m,
        int         code,
        const char *format,
        ...) G_GNUC_PRINTF (3, 4);

static gboolean
refuse (Machine    *m,
        int         code,
        const char *format,
        ...)
{
  g_autofree char *reason = NULL;
  va_list args;

  if (m->error != NULL)
    return FALSE;
  va_start (args, format);
  reason = g_strdup_vprintf (format, args);
  va_end (args);
  g_set_error (&m->error, SL_TORCH_TENSOR_ERROR, code,
               _("data.pkl offset %lu: %s"), (gulong) m->op_at, reason);
  return FALSE;
}

static Value *
new_value (Machine *m,
           Kind     kind)
{
  Value *value;

  if (m->arena->len >= MAX_VALUES)
    {
      refuse (m, SL_TORCH_TENSOR_ERROR_REFUSED, "%s", _("more values than one tensor needs"));
      return NULL;
    }
  value = g_new0 (Value, 1);
  value->kind = kind;
  g_ptr_array_add (m->arena, value);
  return value;
}

static gboolean
push (Machine *m,
      Value   *value)
{
  if (value == NULL)
    return FALSE;
  if (m->depth >= MAX_STACK)
    return refuse (m, SL_TORCH_TENSOR_ERROR_REFUSED, "%s", _("the stack grows deeper than one tensor needs"));
  m->stack[m->depth++] = value;
  return TRUE;
}

static Value *
pop (Machine *m)
{
  if (m->depth == 0 || m->stack[m->depth - 1]->kind == V_MARK)
    {
      refuse (m, SL_TORCH_TENSOR_ERROR_PICKLE, "%s", _("the stack is empty"));
      return NULL;
    }
  return m->stack[--m->depth];
}

/* The next @n bytes, or %NULL at the end of the pickle. */
static const guint8 *
take (Machine *m,
      gsize    n)
{
  const guint8 *bytes;

  if (m->length - m->pos < n)
    {
      refuse (m, SL_TORCH_TENSOR_ERROR_PICKLE, "%s", _("the pickle ends in the middle of an opcode"));
      return NULL;
    }
  bytes = m->data + m->pos;
  m->pos += n;
  return bytes;
}

static gboolean
take_uint (Machine *m,
           gsize    n,
           guint64 *out)
{
  const guint8 *p = take (m, n);

  if (p == NULL)
    return FALSE;
  *out = 0;
  for (gsize i = n; i-- > 0;)
    *out = (*out << 8) | p[i];
  return TRUE;
}

static gboolean
push_int (Machine *m,
          gint64   i)
{
  Value *value = new_value (m, V_INT);

  if (value != NULL)
    value->i = i;
  return push (m, value);
}

static gboolean
push_string (Machine *m,
             gsize    length)
{
  const guint8 *p;
  Value *value;

  if (length > MAX_STRING)
    return refuse (m, SL_TORCH_TENSOR_ERROR_REFUSED, "%s", _("a string longer than torch.save writes"));
  if ((p = take (m, length)) == NULL)
    return FALSE;
  if (memchr (p, '\0', length) != NULL || !g_utf8_validate ((const char *) p, length, NULL))
    return refuse (m, SL_TORCH_TENSOR_ERROR_PICKLE, "%s", _("a string is not UTF-8 text"));
  value = new_value (m, V_STR);
  if (value != NULL)
    value->s = g_strndup ((const char *) p, length);
  return push (m, value);
}

/* The only callables the machine knows; anything else is refused. */
static gboolean
push_global (Machine    *m,
             const char *module,
             const char *name)
{
  Value *value = NULL;

  if (g_str_equal (module, "torch._utils") && g_str_equal (name, "_rebuild_tensor_v2"))
    value = new_value (m, V_REBUILD);
  else if (g_str_equal (module, "collections") && g_str_equal (name, "OrderedDict"))
    value = new_value (m, V_ORDERED_DICT);
  else if (g_str_equal (module, "torch"))
    {
      for (guint i = 0; i < G_N_ELEMENTS (storage_types); i++)
        if (g_str_equal (name, storage_types[i].class_name))
          {
            value = new_value (m, V_STORAGE_TYPE);
            if (value != NULL)
              value->storage = &storage_types[i];
          }
    }
  if (value == NULL && m->error == NULL)
    return refuse (m, SL_TORCH_TENSOR_ERROR_REFUSED, _("the global %s.%s is not one torch.save writes for a tensor"),
                   module, name);
  return push (m, value);
}

static gboolean
read_line (Machine  *m,
           char    **line)
{
  const guint8 *start = m->data + m->pos;
  const guint8 *end = memchr (start, '\n', MIN (m->length - m->pos, (gsize) MAX_STRING + 1));

  if (end == NULL)
    return refuse (m, SL_TORCH_TENSOR_ERROR_PICKLE, "%s", _("a GLOBAL name has no end"));
  if (!g_utf8_validate ((const char *) start, end - start, NULL) || memchr (start, '\0', end - start) != NULL)
    return refuse (m, SL_TORCH_TENSOR_ERROR_PICKLE, "%s", _("a string is not UTF-8 text"));
  *line = g_strndup ((const char *) start, end - start);
  m->pos += (end - start) + 1;
  return TRUE;
}

static gboolean
op_global (Machine *m)
{
  g_autofree char *module = NULL;
  g_autofree char *name = NULL;

  return read_line (m, &module) && read_line (m, &name) && push_global (m, module, name);
}

static gboolean
op_stack_global (Machine *m)
{
  Value *name = pop (m);
  Value *module = name != NULL ? pop (m) : NULL;

  if (module == NULL)
    return FALSE;
  if (name->kind != V_STR || module->kind != V_STR)
    return refuse (m, SL_TORCH_TENSOR_ERROR_PICKLE, "%s", _("STACK_GLOBAL needs two strings"));
  return push_global (m, module->s, name->s);
}

static gboolean
make_tuple (Machine *m,
            guint    n)
{
  Value *tuple;

  if (m->depth < n)
    return refuse (m, SL_TORCH_TENSOR_ERROR_PICKLE, "%s", _("the stack is empty"));
  for (guint i = m->depth - n; i < m->depth; i++)
    if (m->stack[i]->kind == V_MARK)
      return refuse (m, SL_TORCH_TENSOR_ERROR_PICKLE, "%s", _("the stack is empty"));
  tuple = new_value (m, V_TUPLE);
  if (tuple == NULL)
    return FALSE;
  tuple->items = g_ptr_array_new ();
  for (guint i = m->depth - n; i < m->depth; i++)
    g_ptr_array_add (tuple->items, m->stack[i]);
  m->depth -= n;
  return push (m, tuple);
}

static gboolean
op_tuple_to_mark (Machine *m)
{
  guint mark = m->depth;

  while (mark > 0 && m->stack[mark - 1]->kind != V_MARK)
    mark--;
  if (mark == 0)
    return refuse (m, SL_TORCH_TENSOR_ERROR_PICKLE, "%s", _("TUPLE without a MARK"));
  {
    guint n = m->depth - mark;

    if (!make_tuple (m, n))
      return FALSE;
    /* Drop the mark under the new tuple. */
    m->stack[mark - 1] = m->stack[mark];
    m->depth--;
  }
  return TRUE;
}

static Value *
item (const Value *tuple,
      guint        i)
{
  return g_ptr_array_index (tuple->items, i);
}

/* ('storage', torch.FloatStorage, '0', 'cpu', numel) */
static gboolean
op_binpersid (Machine *m)
{
  Value *pid = pop (m);
  Value *storage;

  if (pid == NULL)
    return FALSE;
  if (pid->kind != V_TUPLE || pid->items->len != 5 ||
      item (pid, 0)->kind != V_STR || !g_str_equal (item (pid, 0)->s, "storage") ||
      item (pid, 1)->kind != V_STORAGE_TYPE || item (pid, 2)->kind != V_STR ||
      item (pid, 3)->kind != V_STR || item (pid, 4)->kind != V_INT || item (pid, 4)->i < 0)
    return refuse (m, SL_TORCH_TENSOR_ERROR_REFUSED, "%s", _("a persistent id that is not a storage"));
  storage = new_value (m, V_STORAGE);
  if (storage == NULL)
    return FALSE;
  storage->storage = item (pid, 1)->storage;
  storage->s = g_strdup (item (pid, 2)->s);
  storage->i = item (pid, 4)->i;
  return push (m, storage);
}

static gboolean
is_int_tuple (const Value *value)
{
  if (value->kind != V_TUPLE || value->items->len > SL_TORCH_TENSOR_MAX_DIMS)
    return FALSE;
  for (guint i = 0; i < value->items->len; i++)
    if (item (value, i)->kind != V_INT)
      return FALSE;
  return TRUE;
}

/* _rebuild_tensor_v2 (storage, offset, size, stride, requires_grad,
 * backward_hooks[, metadata]) */
static gboolean
check_rebuild_args (const Value *args)
{
  if (args->kind != V_TUPLE || (args->items->len != 6 && args->items->len != 7))
    return FALSE;
  if (item (args, 0)->kind != V_STORAGE || item (args, 1)->kind != V_INT ||
      !is_int_tuple (item (args, 2)) || !is_int_tuple (item (args, 3)) ||
      item (args, 2)->items->len != item (args, 3)->items->len ||
      item (args, 4)->kind != V_BOOL || item (args, 5)->kind != V_DICT)
    return FALSE;
  return args->items->len == 6 || item (args, 6)->kind == V_DICT || item (args, 6)->kind == V_NONE;
}

static gboolean
op_reduce (Machine *m)
{
  Value *args = pop (m);
  Value *callable = args != NULL ? pop (m) : NULL;
  Value *result;

  if (callable == NULL)
    return FALSE;
  if (callable->kind == V_ORDERED_DICT && args->kind == V_TUPLE && args->items->len == 0)
    return push (m, new_value (m, V_DICT));
  if (callable->kind == V_REBUILD)
    {
      if (!check_rebuild_args (args))
        return refuse (m, SL_TORCH_TENSOR_ERROR_REFUSED, "%s", _("_rebuild_tensor_v2 called with other arguments than a tensor's"));
      result = new_value (m, V_TENSOR);
      if (result != NULL)
        result->args = args;
      return push (m, result);
    }
  return refuse (m, SL_TORCH_TENSOR_ERROR_REFUSED, "%s", _("REDUCE of something that is not a tensor or an OrderedDict"));
}

static gboolean
memo_put (Machine *m,
          guint64  index)
{
  if (m->depth == 0 || m->stack[m->depth - 1]->kind == V_MARK)
    return refuse (m, SL_TORCH_TENSOR_ERROR_PICKLE, "%s", _("the stack is empty"));
  if (index >= MAX_MEMO)
    return refuse (m, SL_TORCH_TENSOR_ERROR_REFUSED, "%s", _("a memo index larger than one tensor needs"));
  m->memo[index] = m->stack[m->depth - 1];
  return TRUE;
}

static gboolean
memo_get (Machine *m,
          guint64  index)
{
  if (index >= MAX_MEMO || m->memo[index] == NULL)
    return refuse (m, SL_TORCH_TENSOR_ERROR_PICKLE, "%s", _("a memo index that was never set"));
  return push (m, m->memo[index]);
}

static gboolean
step (Machine *m)
{
  const guint8 *p;
  guint64 n;
  guint8 op;

  m->op_at = m->pos;
  if ((p = take (m, 1)) == NULL)
    return FALSE;
  op = p[0];
  switch (op)
    {
    case 0x80: /* PROTO */
      return take_uint (m, 1, &n) && (n <= 5 || refuse (m, SL_TORCH_TENSOR_ERROR_PICKLE, "%s", _("an unknown pickle protocol")));
    case 0x95: /* FRAME: only a length hint */
      return take_uint (m, 8, &n);
    case 'c':
      return op_global (m);
    case 0x93:
      return op_stack_global (m);
    case 'q':
      return take_uint (m, 1, &n) && memo_put (m, n);
    case 'r':
      return take_uint (m, 4, &n) && memo_put (m, n);
    case 0x94: /* MEMOIZE */
      return memo_put (m, m->memo_next++);
    case 'h':
      return take_uint (m, 1, &n) && memo_get (m, n);
    case 'j':
      return take_uint (m, 4, &n) && memo_get (m, n);
    case '(':
      return push (m, new_value (m, V_MARK));
    case 'X':
      return take_uint (m, 4, &n) && push_string (m, n);
    case 0x8c: /* SHORT_BINUNICODE */
      return take_uint (m, 1, &n) && push_string (m, n);
    case 'K':
      return take_uint (m, 1, &n) && push_int (m, (gint64) n);
    case 'M':
      return take_uint (m, 2, &n) && push_int (m, (gint64) n);
    case 'J':
      return take_uint (m, 4, &n) && push_int (m, (gint32) (guint32) n);
    case 0x8a: /* LONG1 */
      {
        guint64 size, value;

        if (!take_uint (m, 1, &size))
          return FALSE;
        if (size > 8)
          return refuse (m, SL_TORCH_TENSOR_ERROR_REFUSED, "%s", _("an integer larger than 64 bits"));
        if (size == 0)
          return push_int (m, 0);
        if (!take_uint (m, size, &value))
          return FALSE;
        if (size < 8 && (value >> (size * 8 - 1)) != 0)
          value |= ~G_GUINT64_CONSTANT (0) << (size * 8);
        return push_int (m, (gint64) value);
      }
    case 't':
      return op_tuple_to_mark (m);
    case ')':
      return make_tuple (m, 0);
    case 0x85:
      return make_tuple (m, 1);
    case 0x86:
      return make_tuple (m, 2);
    case 0x87:
      return make_tuple (m, 3);
    case 0x88:
    case 0x89:
      {
        Value *value = new_value (m, V_BOOL);

        if (value != NULL)
          value->i = op == 0x88;
        return push (m, value);
      }
    case 'N':
      return push (m, new_value (m, V_NONE));
    case '}':
      return push (m, new_value (m, V_DICT));
    case 'Q':
      return op_binpersid (m);
    case 'R':
      return op_reduce (m);
    case '.':
      m->result = pop (m);
      return m->result != NULL;
    default:
      return refuse (m, SL_TORCH_TENSOR_ERROR_REFUSED, _("opcode 0x%02x is not one torch.save writes for a tensor"), op);
    }
}

/* Runs data.pkl; the tensor value, or %NULL with the machine's error. */
static const Value *
run_pickle (Machine *m)
{
  while (m->result == NULL)
    if (!step (m))
      return NULL;
  if (m->result->kind != V_TENSOR)
    {
      refuse (m, SL_TORCH_TENSOR_ERROR_REFUSED, "%s", _("the pickle does not hold a tensor"));
      return NULL;
    }
  return m->result;
}

static void
sl_torch_tensor_finalize (GObject *object)
{
  SlTorchTensor *self = SL_TORCH_TENSOR (object);

  g_clear_pointer (&self->storage, g_bytes_unref);
  g_clear_pointer (&self->file, g_bytes_unref);
  G_OBJECT_CLASS (sl_torch_tensor_parent_class)->finalize (object);
}

static void
sl_torch_tensor_class_init (SlTorchTensorClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = sl_torch_tensor_finalize;
}

static void
sl_torch_tensor_init (SlTorchTensor *self)
{
}

/* Shape and strides inside the storage's numel, without overflow. */
static gboolean
fill_view (SlTorchTensor  *self,
           const Value    *args,
           GError        **error)
{
  const Value *storage = item (args, 0);
  const Value *size = item (args, 2);
  const Value *stride = item (args, 3);
  gint64 offset = item (args, 1)->i;
  guint64 n_elements = 1, last = 0, storage_bytes;
  gsize available = g_bytes_get_size (self->storage);

  if (offset < 0)
    goto out_of_bounds;
  self->view.n_dims = size->items->len;
  for (guint i = 0; i < size->items->len; i++)
    {
      gint64 dim = item (size, i)->i;
      gint64 step = item (stride, i)->i;
      guint64 reach;

      if (dim < 0 || step < 0)
        goto out_of_bounds;
      self->view.shape[i] = dim;
      self->view.strides[i] = step;
      if (!g_uint64_checked_mul (&n_elements, n_elements, (guint64) dim))
        goto out_of_bounds;
      if (dim > 0 && (!g_uint64_checked_mul (&reach, (guint64) (dim - 1), (guint64) step) ||
                      !g_uint64_checked_add (&last, last, reach)))
        goto out_of_bounds;
    }
  if (!g_uint64_checked_mul (&storage_bytes, (guint64) storage->i, storage->storage->item_size) ||
      storage_bytes > available)
    {
      g_set_error (error, SL_TORCH_TENSOR_ERROR, SL_TORCH_TENSOR_ERROR_BOUNDS,
                   _("The storage holds %lu bytes, fewer than its %lld elements need"),
                   (gulong) available, (long long) storage->i);
      return FALSE;
    }
  if (n_elements > 0 && (!g_uint64_checked_add (&last, last, (guint64) offset) || last >= (guint64) storage->i))
    goto out_of_bounds;

  self->view.n_elements = n_elements;
  self->view.dtype = storage->storage->dtype;
  self->view.item_size = storage->storage->item_size;
  self->view.requires_grad = item (args, 4)->i != 0;
  self->view.data = (const guint8 *) g_bytes_get_data (self->storage, NULL) + (n_elements > 0 ? offset * self->view.item_size : 0);
  return TRUE;

out_of_bounds:
  g_set_error_literal (error, SL_TORCH_TENSOR_ERROR, SL_TORCH_TENSOR_ERROR_BOUNDS,
                       _("The tensor's offset, shape or strides reach outside its storage"));
  return FALSE;
}

/* The folder all entries share ("archive" or the file's stem). */
static char *
find_prefix (SlZipArchive  *zip,
             GError       **error)
{
  for (guint i = 0; i < sl_zip_archive_get_n_entries (zip); i++)
    {
      const char *name = sl_zip_archive_get_name (zip, i);
      const char *slash = strchr (name, '/');

      if (slash != NULL && g_str_equal (slash, "/data.pkl"))
        return g_strndup (name, slash - name);
    }
  g_set_error_literal (error, SL_TORCH_TENSOR_ERROR, SL_TORCH_TENSOR_ERROR_ARCHIVE,
                       _("The archive has no data.pkl: not a file written by torch.save"));
  return NULL;
}

static GBytes *
read_entry (SlZipArchive  *zip,
            const char    *name,
            gsize          max_size,
            gboolean       required,
            GError       **error)
{
  int index = sl_zip_archive_find (zip, name);
  GError *local = NULL;
  GBytes *bytes;

  if (index < 0)
    {
      if (required)
        g_set_error (error, SL_TORCH_TENSOR_ERROR, SL_TORCH_TENSOR_ERROR_ARCHIVE, _("The archive has no %s"), name);
      return NULL;
    }
  bytes = sl_zip_archive_read (zip, index, max_size, &local);
  if (bytes == NULL)
    {
      g_set_error (error, SL_TORCH_TENSOR_ERROR, SL_TORCH_TENSOR_ERROR_ARCHIVE, "%s: %s", name, local->message);
      g_error_free (local);
    }
  return bytes;
}

static gboolean
read_byte_order (SlTorchTensor  *self,
                 SlZipArchive   *zip,
                 const char     *prefix,
                 GError        **error)
{
  g_autofree char *name = g_strdup_printf ("%s/byteorder", prefix);
  g_autoptr(GBytes) bytes = NULL;
  gsize length;
  const char *text;

  /* Older files have none and are little-endian. */
  if (sl_zip_archive_find (zip, name) < 0)
    return TRUE;
  bytes = read_entry (zip, name, 16, TRUE, error);
  if (bytes == NULL)
    return FALSE;
  text = g_bytes_get_data (bytes, &length);
  if (length == 6 && memcmp (text, "little", 6) == 0)
    return TRUE;
  if (length == 3 && memcmp (text, "big", 3) == 0)
    {
      self->view.big_endian = TRUE;
      return TRUE;
    }
  g_set_error_literal (error, SL_TORCH_TENSOR_ERROR, SL_TORCH_TENSOR_ERROR_ARCHIVE,
                       _("The byteorder entry is neither little nor big"));
  return FALSE;
}

static gboolean
load (SlTorchTensor  *self,
      GError        **error)
{
  g_autoptr(SlZipArchive) zip = sl_zip_archive_new (self->file, error);
  g_autofree char *prefix = NULL;
  g_autofree char *pickle_name = NULL;
  g_autofree char *storage_name = NULL;
  g_autoptr(GBytes) pickle = NULL;
  g_autoptr(GPtrArray) arena = g_ptr_array_new_with_free_func (value_free);
  g_autofree Machine *m = g_new0 (Machine, 1);
  const Value *tensor;

  if (zip == NULL || (prefix = find_prefix (zip, error)) == NULL)
    return FALSE;
  pickle_name = g_strdup_printf ("%s/data.pkl", prefix);
  if ((pickle = read_entry (zip, pickle_name, SL_TORCH_PICKLE_MAX_SIZE, TRUE, error)) == NULL)
    return FALSE;
  if (!read_byte_order (self, zip, prefix, error))
    return FALSE;

  m->data = g_bytes_get_data (pickle, &m->length);
  m->arena = arena;
  tensor = run_pickle (m);
  if (tensor == NULL)
    {
      g_propagate_error (error, m->error);
      return FALSE;
    }
  storage_name = g_strdup_printf ("%s/data/%s", prefix, item (tensor->args, 0)->s);
  if (strchr (item (tensor->args, 0)->s, '/') != NULL ||
      (self->storage = read_entry (zip, storage_name, G_MAXSIZE, TRUE, error)) == NULL)
    {
      if (error != NULL && *error == NULL)
        g_set_error_literal (error, SL_TORCH_TENSOR_ERROR, SL_TORCH_TENSOR_ERROR_REFUSED,
                             _("A storage key that is not a plain name"));
      return FALSE;
    }
  return fill_view (self, tensor->args, error);
}

SlTorchTensor *
sl_torch_tensor_new_from_bytes (GBytes  *bytes,
                                GError **error)
{
  g_autoptr(SlTorchTensor) self = NULL;

  g_return_val_if_fail (bytes != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  self = g_object_new (SL_TYPE_TORCH_TENSOR, NULL);
  self->file = g_bytes_ref (bytes);
  if (!load (self, error))
    return NULL;
  return g_steal_pointer (&self);
}

SlTorchTensor *
sl_torch_tensor_new_from_file (const char  *path,
                               GError     **error)
{
  g_autoptr(GMappedFile) mapped = NULL;
  g_autoptr(GBytes) bytes = NULL;

  g_return_val_if_fail (path != NULL, NULL);

  mapped = sl_input_file_map (path, error);
  if (mapped == NULL)
    return NULL;
  bytes = g_mapped_file_get_bytes (mapped);
  return sl_torch_tensor_new_from_bytes (bytes, error);
}

const SlTorchTensorView *
sl_torch_tensor_get_view (SlTorchTensor *self)
{
  g_return_val_if_fail (SL_IS_TORCH_TENSOR (self), NULL);
  return &self->view;
}
