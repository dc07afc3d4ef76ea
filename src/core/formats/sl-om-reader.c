/* sl-om-reader.c: Ascend offline models (.om) into the graph model
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The layout, as ATC writes it (little-endian):
 *
 *   0    "IMOD"                     84   model name, 32 bytes
 *   4    u32 header length          116  u32 op count
 *   8    u32 header version         120  user information, 32 bytes
 *   12   checksum, 64 bytes         152  u32 IR version
 *   76   reserved, 4 bytes          156  u32 model count
 *   80   u8 is_encrypt              160  platform version, 20 bytes
 *   81   u8 is_checksum             180  u8 platform type
 *   82   u8 type (0 IR, 1 standard, 2 tiny)
 *   83   u8 mode (0 offline, 1 online)
 *
 * At byte 256, a u32 partition count, then per partition u32 type,
 * offset and size; a partition's data begins at 256 + 4 + 12 × count
 * plus its offset. Types: 0 model definition (a GE IR ModelDef), 1
 * weights, 2 task info, 3 TBE kernels, 4 custom AI CPU kernels, 5 device
 * configuration.
 *
 * The header's fields and every partition's size are the graph's
 * metadata; the model definition is decoded as an AIR file is
 * (sl-air-reader.c); the weights and the other partitions are sized,
 * never read. An encrypted model cannot be read: the error says so.
 *
 * Hostile bytes: every offset and size is checked against the file. A
 * partition that starts past the end is left out, one that runs past it
 * is read as far as it goes; each is a problem with the byte offset.
 */
#include "config.h"

#include <string.h>
#include <gio/gio.h>
#include <glib/gi18n.h>

#include "sl-air-reader.h"
#include "sl-graph-builder.h"
#include "sl-om-reader.h"
#include "sl-proto-shape.h"

#define TABLE_ENTRY_SIZE 12

enum {
  PARTITION_MODEL_DEF,
  PARTITION_WEIGHTS,
};

static const char * const partition_names[] = {
  "model_def", "weights", "task_info", "tbe_kernels", "cust_aicpu_kernels", "device_config",
};

static guint32
read_u32 (const guint8 *data)
{
  guint32 value;

  memcpy (&value, data, 4);
  return GUINT32_FROM_LE (value);
}

/* A fixed-size text field, up to its first NUL, as valid UTF-8. */
static char *
dup_fixed_text (const guint8 *data,
                gsize         len)
{
  const guint8 *nul = memchr (data, 0, len);

  return g_utf8_make_valid ((const char *) data, nul != NULL ? nul - data : (gssize) len);
}

static void
add_number (SlGraphBuilder *builder,
            const char     *key,
            guint64         value)
{
  g_autofree char *text = g_strdup_printf ("%" G_GUINT64_FORMAT, value);

  sl_graph_builder_add_metadata (builder, key, text);
}

static void
add_text (SlGraphBuilder *builder,
          const char     *key,
          const guint8   *data,
          gsize           len)
{
  g_autofree char *text = dup_fixed_text (data, len);

  if (text[0] != '\0')
    sl_graph_builder_add_metadata (builder, key, text);
}

static void
add_problem (SlGraphBuilder *builder,
             const char     *path,
             guint64         offset,
             const char     *message)
{
  g_autoptr(SlProblem) problem = sl_problem_new (SL_SEVERITY_WARNING, _("Graph reader"), path, offset, message);

  sl_graph_builder_add_problem (builder, problem);
}

static void
add_header (SlGraphBuilder *builder,
            const guint8   *data)
{
  static const char * const types[] = { "IR", "standard", "tiny" };
  static const char * const modes[] = { "offline", "online" };

  sl_graph_builder_add_metadata (builder, "format", "OM");
  add_text (builder, "model_name", data + 84, 32);
  add_number (builder, "header_version", read_u32 (data + 8));
  add_text (builder, "platform_version", data + 160, 20);
  add_number (builder, "platform_type", data[180]);
  add_number (builder, "op_count", read_u32 (data + 116));
  add_number (builder, "ir_version", read_u32 (data + 152));
  add_number (builder, "model_count", read_u32 (data + 156));
  if (data[82] < G_N_ELEMENTS (types))
    sl_graph_builder_add_metadata (builder, "model_type", types[data[82]]);
  else
    add_number (builder, "model_type", data[82]);
  if (data[83] < G_N_ELEMENTS (modes))
    sl_graph_builder_add_metadata (builder, "mode", modes[data[83]]);
  else
    add_number (builder, "mode", data[83]);
  sl_graph_builder_add_metadata (builder, "checksum", data[81] != 0 ? "yes" : "no");
}

/**
 * sl_om_decode:
 * @path: the file the bytes came from, for problems and the graph's name
 *   when the model gives none
 *
 * Decodes an OM file (see the file comment for the layout).
 *
 * Returns: (transfer full) (nullable): the graph, with problems for any
 *   damage; %NULL with @error when no model can be read
 */
SlGraph *
sl_om_decode (const guint8  *data,
              gsize          size,
              const char    *path,
              GError       **error)
{
  g_autoptr(SlGraphBuilder) builder = NULL;
  SlProtoSlice model = { NULL, 0, 0, FALSE };
  gboolean have_model = FALSE;
  guint32 count, fits;
  guint64 base;

  g_return_val_if_fail (data != NULL || size == 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  path = path != NULL ? path : "";
  if (!sl_om_sniff (data, size))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, _("“%s” is not an OM model: it does not start with “IMOD”."),
                   path);
      return NULL;
    }
  if (size < SL_OM_HEADER_SIZE + 4)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("“%s” is cut off at byte %llu, before the end of its OM header and partition table."), path,
                   (unsigned long long) size);
      return NULL;
    }
  if (data[80] != 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("“%s” is an encrypted OM model: its model definition cannot be read without its key."), path);
      return NULL;
    }

  builder = sl_graph_builder_new ();
  sl_graph_builder_set_path (builder, path);
  add_header (builder, data);
  if (read_u32 (data + 4) != SL_OM_HEADER_SIZE)
    {
      g_autofree char *message = g_strdup_printf (_("The OM header gives its length as %u bytes, not %u: the partition table is read at byte %u."),
                                                  read_u32 (data + 4), SL_OM_HEADER_SIZE, SL_OM_HEADER_SIZE);

      add_problem (builder, path, 4, message);
    }

  count = read_u32 (data + SL_OM_HEADER_SIZE);
  fits = (guint32) MIN ((guint64) count, (size - SL_OM_HEADER_SIZE - 4) / TABLE_ENTRY_SIZE);
  base = SL_OM_HEADER_SIZE + 4 + (guint64) TABLE_ENTRY_SIZE * count;
  if (fits < count)
    {
      g_autofree char *message = g_strdup_printf (_("The OM partition table lists %u partitions, but the file ends at byte %llu after %u of them."),
                                                  count, (unsigned long long) size, fits);

      add_problem (builder, path, SL_OM_HEADER_SIZE, message);
    }
  add_number (builder, "partitions", count);

  for (guint32 i = 0; i < fits; i++)
    {
      const guint8 *entry = data + SL_OM_HEADER_SIZE + 4 + (gsize) TABLE_ENTRY_SIZE * i;
      guint32 type = read_u32 (entry), offset = read_u32 (entry + 4), length = read_u32 (entry + 8);
      guint64 start = base + offset, end = start + length;
      g_autofree char *key = NULL, *value = NULL, *type_name = NULL;

      type_name = type < G_N_ELEMENTS (partition_names) ? g_strdup (partition_names[type])
                                                        : g_strdup_printf ("type%u", type);
      key = g_strdup_printf ("partition.%s", type_name);
      value = g_strdup_printf ("%u bytes at byte %" G_GUINT64_FORMAT, length, start);
      sl_graph_builder_add_metadata (builder, key, value);
      if (start > size)
        {
          g_autofree char *message = g_strdup_printf (_("OM partition %u (%s) starts at byte %llu, past the end of the file (%llu bytes): it is left out."),
                                                      i, type_name, (unsigned long long) start,
                                                      (unsigned long long) size);

          add_problem (builder, path, SL_OM_HEADER_SIZE + 4 + (guint64) TABLE_ENTRY_SIZE * i, message);
          continue;
        }
      if (end > size)
        {
          g_autofree char *message = g_strdup_printf (_("OM partition %u (%s) should end at byte %llu, but the file ends at byte %llu: it is read as far as it goes."),
                                                      i, type_name, (unsigned long long) end,
                                                      (unsigned long long) size);

          add_problem (builder, path, size, message);
        }
      if (type == PARTITION_WEIGHTS)
        add_number (builder, "weights", length);
      if (type == PARTITION_MODEL_DEF && !have_model)
        {
          model = (SlProtoSlice) { data + start, (gsize) (MIN (end, size) - start), (gsize) start, end > size };
          have_model = TRUE;
        }
    }

  if (!have_model || model.len == 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("“%s” holds no OM model-definition partition that can be read."), path);
      return NULL;
    }
  return sl_air_read_model_def (g_steal_pointer (&builder), &model, path, NULL, error);
}

/**
 * sl_om_sniff:
 * @data: the whole file or its first bytes
 *
 * Whether @data starts with an OM header's magic, "IMOD".
 */
gboolean
sl_om_sniff (const guint8 *data,
             gsize         size)
{
  return sl_proto_shape_is_om (data, size, FALSE);
}
