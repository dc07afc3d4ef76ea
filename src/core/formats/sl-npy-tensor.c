/* sl-npy-tensor.c: a NumPy .npy file mapped into memory as a tensor
 *
 * The file is mapped, not read, so comparing two large tensors costs no
 * memory beyond the page cache. Everything the header claims is checked
 * against the file before an element is touched.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "sl-input-file.h"
#include "sl-npy-header.h"
#include "sl-npy-tensor.h"

struct _SlNpyTensor
{
  GObject       parent_instance;
  char         *path;
  GMappedFile  *mapping;
  GBytes       *bytes;        /* or the data, when not from a file */
  SlNpyHeader  *header;
  SlTensorData  view;
  gint64        error_offset; /* of the damage parse() refused, or -1 */
  char         *error_reason; /* what is wrong there, without the file and the offset */
};

G_DEFINE_FINAL_TYPE (SlNpyTensor, sl_npy_tensor, G_TYPE_OBJECT)

static void
sl_npy_tensor_finalize (GObject *object)
{
  SlNpyTensor *self = SL_NPY_TENSOR (object);

  g_clear_pointer (&self->header, sl_npy_header_free);
  g_clear_pointer (&self->mapping, g_mapped_file_unref);
  g_clear_pointer (&self->bytes, g_bytes_unref);
  g_clear_pointer (&self->path, g_free);
  g_clear_pointer (&self->error_reason, g_free);
  G_OBJECT_CLASS (sl_npy_tensor_parent_class)->finalize (object);
}

static void
sl_npy_tensor_class_init (SlNpyTensorClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = sl_npy_tensor_finalize;
}

static void
sl_npy_tensor_init (SlNpyTensor *self)
{
}

/* "<f4" and friends; '|' and '=' mean the host's order (or no order). */
static SlTensorDtype
dtype_for_descr (const char *descr,
                 gboolean   *big_endian)
{
  static const struct { const char *code; SlTensorDtype dtype; } codes[] = {
    { "b1", SL_TENSOR_DTYPE_BOOL }, { "?", SL_TENSOR_DTYPE_BOOL },
    { "i1", SL_TENSOR_DTYPE_INT8 }, { "i2", SL_TENSOR_DTYPE_INT16 },
    { "i4", SL_TENSOR_DTYPE_INT32 }, { "i8", SL_TENSOR_DTYPE_INT64 },
    { "u1", SL_TENSOR_DTYPE_UINT8 }, { "u2", SL_TENSOR_DTYPE_UINT16 },
    { "u4", SL_TENSOR_DTYPE_UINT32 }, { "u8", SL_TENSOR_DTYPE_UINT64 },
    { "f2", SL_TENSOR_DTYPE_FLOAT16 }, { "f4", SL_TENSOR_DTYPE_FLOAT32 },
    { "f8", SL_TENSOR_DTYPE_FLOAT64 },
  };
  const char *code = descr;

  *big_endian = G_BYTE_ORDER == G_BIG_ENDIAN;
  if (*code == '<' || *code == '>')
    *big_endian = *code == '>';
  if (*code == '<' || *code == '>' || *code == '|' || *code == '=')
    code++;
  for (guint i = 0; i < G_N_ELEMENTS (codes); i++)
    if (g_str_equal (code, codes[i].code))
      return codes[i].dtype;
  return SL_TENSOR_DTYPE_UNKNOWN;
}

static gboolean
fail (SlNpyTensor  *self,
      GError      **error,
      gint64        offset,
      const char   *reason)
{
  self->error_offset = offset;
  g_free (self->error_reason);
  self->error_reason = g_strdup (reason);
  /* Translators: a file, the byte offset of the damage and what is wrong */
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, _("%s: offset %lld: %s"),
               self->path, (long long)offset, reason);
  return FALSE;
}

static gboolean
check_header (SlNpyTensor  *self,
              const guint8 *data,
              gsize         file_size,
              GError      **error)
{
  SlNpyHeader *header = self->header;
  guint64 n_elements = 0, data_size = 0;
  gboolean big_endian = FALSE;
  SlTensorDtype dtype;

  dtype = header->structured ? SL_TENSOR_DTYPE_UNKNOWN : dtype_for_descr (header->descr, &big_endian);
  if (dtype == SL_TENSOR_DTYPE_UNKNOWN)
    {
      g_autofree char *reason = g_strdup_printf (_("the dtype “%s” is not a number type that can be compared"),
                                                 header->descr);
      return fail (self, error, 0, reason);
    }
  if (!sl_npy_header_get_n_elements (header, &n_elements) || !sl_npy_header_get_data_size (header, &data_size))
    return fail (self, error, 0, _("the shape's size overflows"));
  if (data_size > file_size - header->data_offset)
    {
      g_autofree char *reason =
        g_strdup_printf (_("the shape needs %llu bytes of data but the file holds %llu"),
                         (unsigned long long)data_size, (unsigned long long)(file_size - header->data_offset));
      return fail (self, error, header->data_offset, reason);
    }

  self->view.data = data + header->data_offset;
  self->view.n_elements = n_elements;
  self->view.dtype = dtype;
  self->view.big_endian = big_endian;
  self->view.fortran_order = header->fortran_order;
  self->view.n_dims = header->n_dims;
  self->view.shape = header->shape;
  return TRUE;
}

static gboolean
parse (SlNpyTensor   *self,
       const guint8  *data,
       gsize          size,
       GError       **error)
{
  g_autoptr(GError) local_error = NULL;
  gsize header_size;
  gint64 error_offset = 0;

  if (!sl_npy_header_peek_size (data, size, &header_size, &local_error))
    return fail (self, error, 0, local_error->message);
  if (header_size > size)
    return fail (self, error, size, _("the file ends inside the NumPy header"));
  if ((self->header = sl_npy_header_parse (data, size, &error_offset, &local_error)) == NULL)
    return fail (self, error, error_offset, local_error->message);
  return check_header (self, data, size, error);
}

/**
 * sl_npy_tensor_open:
 *
 * Maps @path and checks its header: object arrays, structured dtypes and
 * headers whose shape needs more data than the file holds are refused,
 * the error naming the file, the offset and the reason.
 */
SlNpyTensor *
sl_npy_tensor_open (const char  *path,
                    GError     **error)
{
  return sl_npy_tensor_open_full (path, NULL, NULL, error);
}

/**
 * sl_npy_tensor_open_full:
 * @error_offset: (out) (optional): where the file is damaged, when it is
 *   refused for its contents; -1 when it could not be read
 * @error_reason: (out) (optional) (transfer full): what is wrong there,
 *   without the file and the offset the error's message starts with;
 *   %NULL when it could not be read
 *
 * sl_npy_tensor_open(), telling the offset and the reason of the damage
 * apart too, for a problem that shows the file and the offset on their
 * own.
 */
SlNpyTensor *
sl_npy_tensor_open_full (const char  *path,
                         gint64      *error_offset,
                         char       **error_reason,
                         GError     **error)
{
  g_autoptr(SlNpyTensor) self = NULL;

  g_return_val_if_fail (path != NULL, NULL);

  if (error_offset != NULL)
    *error_offset = -1;
  if (error_reason != NULL)
    *error_reason = NULL;
  self = g_object_new (SL_TYPE_NPY_TENSOR, NULL);
  self->path = g_strdup (path);
  if ((self->mapping = sl_input_file_map (path, error)) == NULL)
    return NULL;
  if (!parse (self, (const guint8 *)g_mapped_file_get_contents (self->mapping),
              g_mapped_file_get_length (self->mapping), error))
    {
      if (error_offset != NULL)
        *error_offset = self->error_offset;
      if (error_reason != NULL)
        *error_reason = g_steal_pointer (&self->error_reason);
      return NULL;
    }
  return g_steal_pointer (&self);
}

/**
 * sl_npy_tensor_new_for_bytes:
 * @name: what errors call the data
 *
 * The same checks as sl_npy_tensor_open() on data in memory (a member of
 * an archive, a fuzzer's input); the tensor keeps a reference to @bytes.
 */
SlNpyTensor *
sl_npy_tensor_new_for_bytes (const char  *name,
                             GBytes      *bytes,
                             GError     **error)
{
  g_autoptr(SlNpyTensor) self = NULL;
  gsize size;
  const guint8 *data;

  g_return_val_if_fail (name != NULL, NULL);
  g_return_val_if_fail (bytes != NULL, NULL);

  self = g_object_new (SL_TYPE_NPY_TENSOR, NULL);
  self->path = g_strdup (name);
  self->bytes = g_bytes_ref (bytes);
  data = g_bytes_get_data (bytes, &size);
  if (!parse (self, data, size, error))
    return NULL;
  return g_steal_pointer (&self);
}

const SlTensorData *
sl_npy_tensor_get_view (SlNpyTensor *self)
{
  g_return_val_if_fail (SL_IS_NPY_TENSOR (self), NULL);

  return &self->view;
}

const char *
sl_npy_tensor_get_path (SlNpyTensor *self)
{
  g_return_val_if_fail (SL_IS_NPY_TENSOR (self), NULL);

  return self->path;
}

/* The shape as NumPy prints it, "(2, 3)". */
char *
sl_npy_tensor_dup_shape (SlNpyTensor *self)
{
  g_return_val_if_fail (SL_IS_NPY_TENSOR (self), NULL);

  return sl_npy_header_dup_shape (self->header);
}
