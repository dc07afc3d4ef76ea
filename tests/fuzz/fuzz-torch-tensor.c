/* fuzz-torch-tensor.c: libFuzzer harness for the .pt reader
 *
 * The input is read twice: as a whole .pt file (zip and pickle), and as
 * the data.pkl of a well-formed archive with a 64-byte storage, so the
 * pickle machine is reached by most inputs. A view that is returned must
 * lie inside its storage: every element it can address is read.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sl-torch-tensor.h"

int LLVMFuzzerTestOneInput (const uint8_t *data,
                            size_t         size);

static volatile guint8 sink;

static void
touch_view (const SlTorchTensorView *view)
{
  guint64 last = 0;

  g_assert (view->n_dims <= SL_TORCH_TENSOR_MAX_DIMS);
  if (view->n_elements == 0)
    return;
  for (guint i = 0; i < view->n_dims; i++)
    last += (guint64) (view->shape[i] - 1) * (guint64) view->strides[i];
  /* The first and the furthest element; ASan catches a read outside. */
  sink = view->data[0];
  sink = view->data[last * view->item_size + view->item_size - 1];
}

static void
put_u16 (GByteArray *out, guint v)
{
  guint8 b[2] = { v & 0xff, (v >> 8) & 0xff };
  g_byte_array_append (out, b, 2);
}

static void
put_u32 (GByteArray *out, guint32 v)
{
  guint8 b[4] = { v & 0xff, (v >> 8) & 0xff, (v >> 16) & 0xff, v >> 24 };
  g_byte_array_append (out, b, 4);
}

/* A stored zip with archive/data.pkl = @pickle and archive/data/0. */
static GBytes *
wrap (const uint8_t *pickle,
      size_t         size)
{
  static const guint8 storage[64] = { 0 };
  const char *names[2] = { "archive/data.pkl", "archive/data/0" };
  const guint8 *datas[2] = { pickle, storage };
  guint32 lengths[2] = { (guint32) size, sizeof storage };
  guint32 offsets[2];
  GByteArray *out = g_byte_array_new ();
  guint32 cd_offset, cd_size;

  for (guint i = 0; i < 2; i++)
    {
      offsets[i] = out->len;
      put_u32 (out, 0x04034b50);
      put_u16 (out, 20); put_u16 (out, 0); put_u16 (out, 0); put_u16 (out, 0); put_u16 (out, 0);
      put_u32 (out, 0); put_u32 (out, lengths[i]); put_u32 (out, lengths[i]);
      put_u16 (out, strlen (names[i])); put_u16 (out, 0);
      g_byte_array_append (out, (const guint8 *) names[i], strlen (names[i]));
      g_byte_array_append (out, datas[i], lengths[i]);
    }
  cd_offset = out->len;
  for (guint i = 0; i < 2; i++)
    {
      put_u32 (out, 0x02014b50);
      put_u16 (out, 20); put_u16 (out, 20); put_u16 (out, 0); put_u16 (out, 0); put_u16 (out, 0); put_u16 (out, 0);
      put_u32 (out, 0); put_u32 (out, lengths[i]); put_u32 (out, lengths[i]);
      put_u16 (out, strlen (names[i])); put_u16 (out, 0); put_u16 (out, 0); put_u16 (out, 0); put_u16 (out, 0);
      put_u32 (out, 0); put_u32 (out, offsets[i]);
      g_byte_array_append (out, (const guint8 *) names[i], strlen (names[i]));
    }
  cd_size = out->len - cd_offset;
  put_u32 (out, 0x06054b50);
  put_u16 (out, 0); put_u16 (out, 0); put_u16 (out, 2); put_u16 (out, 2);
  put_u32 (out, cd_size); put_u32 (out, cd_offset); put_u16 (out, 0);
  return g_byte_array_free_to_bytes (out);
}

static void
read_one (GBytes *bytes)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SlTorchTensor) tensor = sl_torch_tensor_new_from_bytes (bytes, &error);

  g_assert ((tensor == NULL) == (error != NULL));
  if (tensor != NULL)
    touch_view (sl_torch_tensor_get_view (tensor));
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  /* A copy of exactly @size bytes, so reading past it is caught. */
  g_autoptr(GBytes) whole = g_bytes_new (data, size);
  g_autoptr(GBytes) wrapped = NULL;

  read_one (whole);
  if (size <= SL_TORCH_PICKLE_MAX_SIZE)
    {
      wrapped = wrap (data, size);
      read_one (wrapped);
    }
  return 0;
}
