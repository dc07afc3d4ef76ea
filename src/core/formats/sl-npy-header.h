/* sl-npy-header.h: the header of a NumPy .npy file
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define SL_NPY_MAGIC            "\x93NUMPY"
#define SL_NPY_MAGIC_LEN        6
/* Longer headers are refused: NumPy itself stops at 10000 characters. */
#define SL_NPY_MAX_HEADER_SIZE  (64 * 1024)
#define SL_NPY_MAX_DIMS         64

typedef struct _SlNpyHeader SlNpyHeader;

struct _SlNpyHeader
{
  guint8    major_version;
  guint8    minor_version;
  char     *descr;          /* "<f4", or the text of a structured descr list */
  gboolean  structured;
  gboolean  fortran_order;
  guint     n_dims;
  guint64  *shape;
  gsize     data_offset;    /* where the array data starts in the file */
  gsize     item_size;      /* bytes per element, 0 when unknown */
};

gboolean     sl_npy_header_has_magic       (const guint8       *data,
                                            gsize               len);
gboolean     sl_npy_header_peek_size       (const guint8       *data,
                                            gsize               len,
                                            gsize              *header_size,
                                            GError            **error);
SlNpyHeader *sl_npy_header_parse           (const guint8       *data,
                                            gsize               len,
                                            gint64             *error_offset,
                                            GError            **error);
gboolean     sl_npy_header_get_n_elements  (const SlNpyHeader  *self,
                                            guint64            *n_elements);
gboolean     sl_npy_header_get_data_size   (const SlNpyHeader  *self,
                                            guint64            *data_size);
char        *sl_npy_header_dup_shape       (const SlNpyHeader  *self);
void         sl_npy_header_free            (SlNpyHeader        *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlNpyHeader, sl_npy_header_free)

G_END_DECLS
