/* test-torch-tensor.c: .pt files written here as zip bytes with a
 * hand-written pickle, read back as views, and hostile pickles refused
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <zlib.h>

#include "sl-torch-tensor.h"
#include "sl-zip-archive.h"

typedef struct {
  const char   *name;
  const guint8 *data;
  gsize         length;
  gboolean      deflate;
} ZipEntry;

static void
put_u16 (GByteArray *out,
         guint       v)
{
  guint8 b[2] = { v & 0xff, (v >> 8) & 0xff };

  g_byte_array_append (out, b, 2);
}

static void
put_u32 (GByteArray *out,
         guint32     v)
{
  guint8 b[4] = { v & 0xff, (v >> 8) & 0xff, (v >> 16) & 0xff, v >> 24 };

  g_byte_array_append (out, b, 4);
}

/* Raw deflate, as zip stores it. */
static GByteArray *
deflate_raw (const guint8 *data,
             gsize         length)
{
  GByteArray *out = g_byte_array_sized_new (length + 64);
  z_stream stream = { 0 };

  g_assert_cmpint (deflateInit2 (&stream, 9, Z_DEFLATED, -MAX_WBITS, 8, Z_DEFAULT_STRATEGY), ==, Z_OK);
  g_byte_array_set_size (out, deflateBound (&stream, length));
  stream.next_in = (Bytef *) data;
  stream.avail_in = length;
  stream.next_out = out->data;
  stream.avail_out = out->len;
  g_assert_cmpint (deflate (&stream, Z_FINISH), ==, Z_STREAM_END);
  g_byte_array_set_size (out, stream.total_out);
  deflateEnd (&stream);
  return out;
}

/* A zip archive as torch.save writes it (CRCs are left 0: the reader
 * does not need them). */
static GBytes *
make_zip (const ZipEntry *entries,
          guint           n)
{
  g_autoptr(GByteArray) out = g_byte_array_new ();
  g_autoptr(GByteArray) central = g_byte_array_new ();
  guint32 cd_offset;

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(GByteArray) packed = entries[i].deflate ? deflate_raw (entries[i].data, entries[i].length) : NULL;
      const guint8 *data = packed != NULL ? packed->data : entries[i].data;
      gsize length = packed != NULL ? packed->len : entries[i].length;
      guint32 offset = out->len;
      guint name_len = strlen (entries[i].name);

      put_u32 (out, 0x04034b50);
      put_u16 (out, 20); put_u16 (out, 0); put_u16 (out, entries[i].deflate ? 8 : 0);
      put_u16 (out, 0); put_u16 (out, 0);
      put_u32 (out, 0); put_u32 (out, length); put_u32 (out, entries[i].length);
      put_u16 (out, name_len); put_u16 (out, 0);
      g_byte_array_append (out, (const guint8 *) entries[i].name, name_len);
      g_byte_array_append (out, data, length);

      put_u32 (central, 0x02014b50);
      put_u16 (central, 20); put_u16 (central, 20); put_u16 (central, 0); put_u16 (central, entries[i].deflate ? 8 : 0);
      put_u16 (central, 0); put_u16 (central, 0);
      put_u32 (central, 0); put_u32 (central, length); put_u32 (central, entries[i].length);
      put_u16 (central, name_len); put_u16 (central, 0); put_u16 (central, 0);
      put_u16 (central, 0); put_u16 (central, 0); put_u32 (central, 0);
      put_u32 (central, offset);
      g_byte_array_append (central, (const guint8 *) entries[i].name, name_len);
    }
  cd_offset = out->len;
  g_byte_array_append (out, central->data, central->len);
  put_u32 (out, 0x06054b50);
  put_u16 (out, 0); put_u16 (out, 0); put_u16 (out, n); put_u16 (out, n);
  put_u32 (out, central->len); put_u32 (out, cd_offset); put_u16 (out, 0);
  return g_byte_array_free_to_bytes (g_steal_pointer (&out));
}

/* Pickle writing, one opcode a call. */
static void
op (GByteArray *p,
    const char *bytes,
    gsize       length)
{
  g_byte_array_append (p, (const guint8 *) bytes, length);
}

static void
op_global (GByteArray *p,
           const char *module,
           const char *name)
{
  g_autofree char *text = g_strdup_printf ("c%s\n%s\n", module, name);

  op (p, text, strlen (text));
}

static void
op_unicode (GByteArray *p,
            const char *text)
{
  op (p, "X", 1);
  put_u32 (p, strlen (text));
  op (p, text, strlen (text));
}

static void
op_int (GByteArray *p,
        guint       value)
{
  if (value < 256)
    {
      guint8 b[2] = { 'K', value };

      op (p, (const char *) b, 2);
    }
  else
    {
      op (p, "J", 1);
      put_u32 (p, value);
    }
}

typedef struct {
  const char *storage_class;
  const char *key;
  guint       numel;
  guint       offset;
  guint       n_dims;
  guint       shape[4];
  guint       strides[4];
} TensorSpec;

/* What torch.save writes for one tensor (protocol 2). */
static GByteArray *
tensor_pickle (const TensorSpec *spec)
{
  GByteArray *p = g_byte_array_new ();

  op (p, "\x80\x02", 2);
  op_global (p, "torch._utils", "_rebuild_tensor_v2");
  op (p, "q\x00", 2);
  op (p, "((", 2);
  op_unicode (p, "storage");
  op (p, "q\x01", 2);
  op_global (p, "torch", spec->storage_class);
  op_unicode (p, spec->key);
  op_unicode (p, "cpu");
  op_int (p, spec->numel);
  op (p, "tQ", 2);
  op_int (p, spec->offset);
  op (p, "(", 1);
  for (guint i = 0; i < spec->n_dims; i++)
    op_int (p, spec->shape[i]);
  op (p, "t(", 2);
  for (guint i = 0; i < spec->n_dims; i++)
    op_int (p, spec->strides[i]);
  op (p, "t\x89", 2);
  op_global (p, "collections", "OrderedDict");
  op (p, ")RtR.", 5);
  return p;
}

static GBytes *
make_pt (GByteArray   *pickle,
         const char   *key,
         const guint8 *storage,
         gsize         storage_size,
         const char   *byte_order,
         gboolean      deflate)
{
  g_autofree char *storage_name = g_strdup_printf ("archive/data/%s", key);
  ZipEntry entries[] = {
    { "archive/data.pkl", pickle->data, pickle->len, deflate },
    { "archive/byteorder", (const guint8 *) byte_order, byte_order != NULL ? strlen (byte_order) : 0, FALSE },
    { storage_name, storage, storage_size, FALSE },
    { "archive/version", (const guint8 *) "3\n", 2, FALSE },
  };

  if (byte_order == NULL)
    {
      entries[1] = entries[3];
      return make_zip (entries, 3);
    }
  return make_zip (entries, 4);
}

static const float six[6] = { 0, 1, 2, 3, 4, 5 };

static SlTorchTensor *
load_spec (const TensorSpec *spec,
           const guint8     *storage,
           gsize             size,
           GError          **error)
{
  g_autoptr(GByteArray) pickle = tensor_pickle (spec);
  g_autoptr(GBytes) pt = make_pt (pickle, spec->key, storage, size, "little", FALSE);

  return sl_torch_tensor_new_from_bytes (pt, error);
}

static float
element (const SlTorchTensorView *view,
         gint64              i,
         gint64              j)
{
  float value;

  memcpy (&value, view->data + (i * view->strides[0] + j * view->strides[1]) * view->item_size, 4);
  return value;
}

static void
test_float32 (void)
{
  TensorSpec spec = { "FloatStorage", "0", 6, 0, 2, { 2, 3 }, { 3, 1 } };
  g_autoptr(GError) error = NULL;
  g_autoptr(SlTorchTensor) tensor = load_spec (&spec, (const guint8 *) six, sizeof six, &error);
  const SlTorchTensorView *view;

  g_assert_no_error (error);
  view = sl_torch_tensor_get_view (tensor);
  g_assert_cmpstr (view->dtype, ==, "float32");
  g_assert_cmpuint (view->item_size, ==, 4);
  g_assert_false (view->big_endian);
  g_assert_false (view->requires_grad);
  g_assert_cmpuint (view->n_dims, ==, 2);
  g_assert_cmpint (view->shape[0], ==, 2);
  g_assert_cmpint (view->shape[1], ==, 3);
  g_assert_cmpint (view->strides[0], ==, 3);
  g_assert_cmpuint (view->n_elements, ==, 6);
  g_assert_cmpfloat (element (view, 1, 2), ==, 5.0f);
  g_assert_cmpfloat (element (view, 0, 1), ==, 1.0f);
}

static void
test_transposed_with_offset (void)
{
  /* t()[..] of a 2x2 view starting at element 1: Fortran order. */
  TensorSpec spec = { "FloatStorage", "7", 6, 1, 2, { 2, 2 }, { 1, 3 } };
  g_autoptr(GError) error = NULL;
  g_autoptr(SlTorchTensor) tensor = load_spec (&spec, (const guint8 *) six, sizeof six, &error);
  const SlTorchTensorView *view;

  g_assert_no_error (error);
  view = sl_torch_tensor_get_view (tensor);
  g_assert_cmpfloat (element (view, 0, 0), ==, 1.0f);
  g_assert_cmpfloat (element (view, 1, 0), ==, 2.0f);
  g_assert_cmpfloat (element (view, 0, 1), ==, 4.0f);
  g_assert_cmpfloat (element (view, 1, 1), ==, 5.0f);
}

static void
test_bfloat16_deflated_big_endian (void)
{
  static const guint8 storage[4] = { 0x3f, 0x80, 0x40, 0x00 };
  TensorSpec spec = { "BFloat16Storage", "0", 2, 0, 1, { 2 }, { 1 } };
  g_autoptr(GByteArray) pickle = tensor_pickle (&spec);
  g_autoptr(GBytes) pt = make_pt (pickle, "0", storage, sizeof storage, "big", TRUE);
  g_autoptr(GError) error = NULL;
  g_autoptr(SlTorchTensor) tensor = sl_torch_tensor_new_from_bytes (pt, &error);
  const SlTorchTensorView *view;

  g_assert_no_error (error);
  view = sl_torch_tensor_get_view (tensor);
  g_assert_cmpstr (view->dtype, ==, "bfloat16");
  g_assert_cmpuint (view->item_size, ==, 2);
  g_assert_true (view->big_endian);
  g_assert_cmpuint (view->data[0], ==, 0x3f);
}

static void
test_scalar_and_empty (void)
{
  static const gint64 value = -42;
  TensorSpec scalar = { "LongStorage", "0", 1, 0, 0, { 0 }, { 0 } };
  TensorSpec empty = { "BoolStorage", "0", 0, 0, 2, { 0, 5 }, { 5, 1 } };
  g_autoptr(GError) error = NULL;
  g_autoptr(SlTorchTensor) a = load_spec (&scalar, (const guint8 *) &value, sizeof value, &error);
  g_autoptr(SlTorchTensor) b = NULL;
  gint64 got;

  g_assert_no_error (error);
  g_assert_cmpuint (sl_torch_tensor_get_view (a)->n_dims, ==, 0);
  g_assert_cmpuint (sl_torch_tensor_get_view (a)->n_elements, ==, 1);
  memcpy (&got, sl_torch_tensor_get_view (a)->data, 8);
  g_assert_cmpint (got, ==, -42);
  b = load_spec (&empty, (const guint8 *) "", 0, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (sl_torch_tensor_get_view (b)->n_elements, ==, 0);
  g_assert_cmpstr (sl_torch_tensor_get_view (b)->dtype, ==, "bool");
}

static void
assert_refused (GByteArray *pickle,
                int         code,
                const char *part)
{
  g_autoptr(GBytes) pt = make_pt (pickle, "0", (const guint8 *) six, sizeof six, NULL, FALSE);
  g_autoptr(GError) error = NULL;
  g_autoptr(SlTorchTensor) tensor = sl_torch_tensor_new_from_bytes (pt, &error);

  g_assert_null (tensor);
  g_assert_error (error, SL_TORCH_TENSOR_ERROR, code);
  if (part != NULL && strstr (error->message, part) == NULL)
    g_error ("“%s” does not say “%s”", error->message, part);
}

static void
test_hostile_pickles (void)
{
  g_autoptr(GByteArray) system_call = g_byte_array_new ();
  g_autoptr(GByteArray) unknown_reduce = g_byte_array_new ();
  g_autoptr(GByteArray) build = NULL;
  g_autoptr(GByteArray) deep = g_byte_array_new ();
  g_autoptr(GByteArray) long_string = g_byte_array_new ();
  g_autoptr(GByteArray) huge_long = g_byte_array_new ();
  g_autoptr(GByteArray) truncated = NULL;
  g_autoptr(GByteArray) not_tensor = g_byte_array_new ();
  g_autoptr(GByteArray) stack_global = g_byte_array_new ();
  TensorSpec spec = { "FloatStorage", "0", 6, 0, 2, { 2, 3 }, { 3, 1 } };

  /* os.system("echo pwned"): the global is refused before any call. */
  op (system_call, "\x80\x02", 2);
  op_global (system_call, "os", "system");
  op_unicode (system_call, "echo pwned");
  op (system_call, "\x85R.", 3);
  assert_refused (system_call, SL_TORCH_TENSOR_ERROR_REFUSED, "os.system");

  /* A known global called with arguments it never gets. */
  op (unknown_reduce, "\x80\x02", 2);
  op_global (unknown_reduce, "torch", "FloatStorage");
  op_int (unknown_reduce, 6);
  op (unknown_reduce, "\x85R.", 3);
  assert_refused (unknown_reduce, SL_TORCH_TENSOR_ERROR_REFUSED, "REDUCE");

  /* The same as STACK_GLOBAL. */
  op (stack_global, "\x80\x04" "\x8c\x08" "builtins" "\x8c\x04" "eval" "\x93)R.", 22);
  assert_refused (stack_global, SL_TORCH_TENSOR_ERROR_REFUSED, "builtins.eval");

  /* BUILD after a tensor (setstate) is not written by torch.save. */
  build = tensor_pickle (&spec);
  g_byte_array_set_size (build, build->len - 1);
  op (build, "}b.", 3);
  assert_refused (build, SL_TORCH_TENSOR_ERROR_REFUSED, "0x62");

  /* Nesting: marks until the stack limit. */
  op (deep, "\x80\x02", 2);
  for (guint i = 0; i < 100000; i++)
    op (deep, "(", 1);
  assert_refused (deep, SL_TORCH_TENSOR_ERROR_REFUSED, "stack");

  /* A 4 GiB string length in a short file. */
  op (long_string, "\x80\x02X\xff\xff\xff\xff", 7);
  assert_refused (long_string, SL_TORCH_TENSOR_ERROR_REFUSED, "string");

  /* An integer of 200 bytes. */
  op (huge_long, "\x80\x02\x8a\xc8", 4);
  assert_refused (huge_long, SL_TORCH_TENSOR_ERROR_REFUSED, "64 bits");

  /* Cut in the middle. */
  truncated = tensor_pickle (&spec);
  g_byte_array_set_size (truncated, 60);
  assert_refused (truncated, SL_TORCH_TENSOR_ERROR_PICKLE, "offset");

  /* A pickle of a plain string. */
  op (not_tensor, "\x80\x02", 2);
  op_unicode (not_tensor, "hello");
  op (not_tensor, ".", 1);
  assert_refused (not_tensor, SL_TORCH_TENSOR_ERROR_REFUSED, "tensor");
}

static void
test_bounds (void)
{
  TensorSpec huge = { "FloatStorage", "0", 6, 0, 2, { 1u << 31, 1u << 31 }, { 1, 1 } };
  TensorSpec wide = { "FloatStorage", "0", 6, 0, 2, { 2, 3 }, { 3, 2 } };
  TensorSpec offset = { "FloatStorage", "0", 6, 1, 2, { 2, 3 }, { 3, 1 } };
  TensorSpec short_storage = { "DoubleStorage", "0", 6, 0, 1, { 6 }, { 1 } };
  TensorSpec escape = { "FloatStorage", "../../etc/passwd", 6, 0, 1, { 6 }, { 1 } };
  TensorSpec missing = { "FloatStorage", "1", 6, 0, 1, { 6 }, { 1 } };
  g_autoptr(GByteArray) escape_pickle = tensor_pickle (&escape);
  g_autoptr(GByteArray) missing_pickle = tensor_pickle (&missing);
  g_autoptr(GBytes) escape_pt = make_pt (escape_pickle, "0", (const guint8 *) six, sizeof six, NULL, FALSE);
  g_autoptr(GBytes) missing_pt = make_pt (missing_pickle, "0", (const guint8 *) six, sizeof six, NULL, FALSE);
  g_autoptr(GBytes) not_zip = g_bytes_new_static ("PK\x03\x04 not really", 16);
  ZipEntry other = { "archive/other", (const guint8 *) "x", 1, FALSE };
  g_autoptr(GBytes) no_pickle = make_zip (&other, 1);
  g_autoptr(GError) error = NULL;

  g_assert_null (load_spec (&huge, (const guint8 *) six, sizeof six, &error));
  g_assert_error (error, SL_TORCH_TENSOR_ERROR, SL_TORCH_TENSOR_ERROR_BOUNDS);
  g_clear_error (&error);
  g_assert_null (load_spec (&wide, (const guint8 *) six, sizeof six, &error));
  g_assert_error (error, SL_TORCH_TENSOR_ERROR, SL_TORCH_TENSOR_ERROR_BOUNDS);
  g_clear_error (&error);
  g_assert_null (load_spec (&offset, (const guint8 *) six, sizeof six, &error));
  g_assert_error (error, SL_TORCH_TENSOR_ERROR, SL_TORCH_TENSOR_ERROR_BOUNDS);
  g_clear_error (&error);
  /* Six doubles do not fit in 24 bytes. */
  g_assert_null (load_spec (&short_storage, (const guint8 *) six, sizeof six, &error));
  g_assert_error (error, SL_TORCH_TENSOR_ERROR, SL_TORCH_TENSOR_ERROR_BOUNDS);
  g_clear_error (&error);

  g_assert_null (sl_torch_tensor_new_from_bytes (escape_pt, &error));
  g_assert_error (error, SL_TORCH_TENSOR_ERROR, SL_TORCH_TENSOR_ERROR_REFUSED);
  g_clear_error (&error);
  g_assert_null (sl_torch_tensor_new_from_bytes (missing_pt, &error));
  g_assert_error (error, SL_TORCH_TENSOR_ERROR, SL_TORCH_TENSOR_ERROR_ARCHIVE);
  g_clear_error (&error);
  g_assert_null (sl_torch_tensor_new_from_bytes (not_zip, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
  g_clear_error (&error);
  g_assert_null (sl_torch_tensor_new_from_bytes (no_pickle, &error));
  g_assert_error (error, SL_TORCH_TENSOR_ERROR, SL_TORCH_TENSOR_ERROR_ARCHIVE);
}

/* Every cut of a good file is refused or read, never read out of bounds. */
static void
test_every_truncation (void)
{
  TensorSpec spec = { "FloatStorage", "0", 6, 0, 2, { 2, 3 }, { 3, 1 } };
  g_autoptr(GByteArray) pickle = tensor_pickle (&spec);
  g_autoptr(GBytes) pt = make_pt (pickle, "0", (const guint8 *) six, sizeof six, "little", TRUE);
  gsize size = g_bytes_get_size (pt);

  for (gsize cut = 0; cut < size; cut++)
    {
      g_autoptr(GBytes) part = g_bytes_new_from_bytes (pt, 0, cut);
      g_autoptr(GError) error = NULL;
      g_autoptr(SlTorchTensor) tensor = sl_torch_tensor_new_from_bytes (part, &error);

      g_assert_null (tensor);
      g_assert_nonnull (error);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/torch-tensor/float32", test_float32);
  g_test_add_func ("/torch-tensor/transposed-with-offset", test_transposed_with_offset);
  g_test_add_func ("/torch-tensor/bfloat16-deflated-big-endian", test_bfloat16_deflated_big_endian);
  g_test_add_func ("/torch-tensor/scalar-and-empty", test_scalar_and_empty);
  g_test_add_func ("/torch-tensor/hostile-pickles", test_hostile_pickles);
  g_test_add_func ("/torch-tensor/bounds", test_bounds);
  g_test_add_func ("/torch-tensor/every-truncation", test_every_truncation);

  return g_test_run ();
}
