/* sl-intern-table.c: the interned strings of a trace
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "sl-intern-table.h"

/* The strings' text, in blocks that double from FIRST_BLOCK to
 * LAST_BLOCK bytes: a trace of a few names takes a few hundred bytes,
 * one of millions the same 64 kB blocks as ever. */
#define FIRST_BLOCK 512
#define LAST_BLOCK  (64 * 1024)
#define FIRST_MASK  63

typedef struct _Block Block;
struct _Block
{
  Block *next;
  char   text[];
};

struct _SlInternTable
{
  Block        *blocks;    /* the newest first */
  gsize         block_size, block_used;
  GPtrArray    *strings;   /* id → const char *, owned by blocks */
  GArray       *lengths;   /* id → guint32 */
  guint32      *slots;     /* id + 1, 0 = empty; NULL once frozen */
  guint32      *hashes;    /* in the slots' allocation, after them */
  guint         mask;
  GHashTable   *repaired;  /* id → valid UTF-8 for the few that were not */
};

/* Eight bytes at a time: names are long (kernel and Python frames). */
static inline guint32
hash_bytes (const char *str,
            gsize       len)
{
  guint64 h = G_GUINT64_CONSTANT (0x9e3779b97f4a7c15) ^ len;
  guint64 w;

  while (len >= 8)
    {
      memcpy (&w, str, 8);
      h = (h ^ w) * G_GUINT64_CONSTANT (0xff51afd7ed558ccd);
      h ^= h >> 32;
      str += 8;
      len -= 8;
    }
  w = 0;
  memcpy (&w, str, len);
  h = (h ^ w) * G_GUINT64_CONSTANT (0xc4ceb9fe1a85ec53);
  h ^= h >> 29;
  return (guint32) h;
}

SlInternTable *
sl_intern_table_new (void)
{
  SlInternTable *table = g_new0 (SlInternTable, 1);

  table->strings = g_ptr_array_new ();
  table->lengths = g_array_new (FALSE, FALSE, sizeof (guint32));
  table->mask = FIRST_MASK;
  table->slots = g_new0 (guint32, 2 * (table->mask + 1));
  table->hashes = table->slots + table->mask + 1;
  return table;
}

void
sl_intern_table_free (SlInternTable *table)
{
  if (table == NULL)
    return;

  while (table->blocks != NULL)
    {
      Block *next = table->blocks->next;

      g_free (table->blocks);
      table->blocks = next;
    }
  g_clear_pointer (&table->strings, g_ptr_array_unref);
  g_clear_pointer (&table->lengths, g_array_unref);
  g_clear_pointer (&table->slots, g_free);
  table->hashes = NULL;
  g_clear_pointer (&table->repaired, g_hash_table_unref);
  g_free (table);
}

/* A copy of @str with a NUL after it, in the blocks. */
static const char *
store_text (SlInternTable *table,
            const char    *str,
            gsize          len)
{
  char *copy;

  if (table->blocks == NULL || table->block_size - table->block_used < len + 1)
    {
      Block *block;

      table->block_size = table->blocks == NULL ? FIRST_BLOCK : MIN (table->block_size * 2, LAST_BLOCK);
      table->block_size = MAX (table->block_size, len + 1);
      block = g_malloc (sizeof (Block) + table->block_size);
      block->next = table->blocks;
      table->blocks = block;
      table->block_used = 0;
    }
  copy = table->blocks->text + table->block_used;
  memcpy (copy, str, len);
  copy[len] = '\0';
  table->block_used += len + 1;
  return copy;
}

static void
intern_grow (SlInternTable *table)
{
  guint new_mask = table->mask * 2 + 1;
  guint32 *slots = g_new0 (guint32, 2 * (new_mask + 1));
  guint32 *hashes = slots + new_mask + 1;

  for (guint i = 0; i <= table->mask; i++)
    {
      guint pos;

      if (table->slots[i] == 0)
        continue;
      pos = table->hashes[i] & new_mask;
      while (slots[pos] != 0)
        pos = (pos + 1) & new_mask;
      slots[pos] = table->slots[i];
      hashes[pos] = table->hashes[i];
    }
  g_free (table->slots);
  table->slots = slots;
  table->hashes = hashes;
  table->mask = new_mask;
}

/* Whether the @len bytes at @str are UTF-8 without a nul, as
 * g_utf8_validate_len() says: runs of ASCII, most names, are passed over
 * eight bytes at a time first, where glib's check takes a byte at a time
 * (a tenth of a small trace's load went to it). */
static gboolean
text_is_valid (const char *str,
               gsize       len)
{
  const guint64 high = G_GUINT64_CONSTANT (0x8080808080808080);
  const guint64 ones = G_GUINT64_CONSTANT (0x0101010101010101);
  gsize i = 0;

  for (; i + 8 <= len; i += 8)
    {
      guint64 w;

      memcpy (&w, str + i, sizeof w);
      /* a byte of 0x80 or more, or a nul */
      if ((w & high) != 0 || ((w - ones) & ~w & high) != 0)
        break;
    }
  return g_utf8_validate_len (str + i, len - i, NULL);
}

guint32
sl_intern_table_intern (SlInternTable *table,
                        const char    *str,
                        gsize          len)
{
  guint32 h;
  guint pos;
  guint32 id;

  g_return_val_if_fail (table != NULL, 0);
  g_return_val_if_fail (table->slots != NULL, 0);

  h = hash_bytes (str, len);
  pos = h & table->mask;
  while (table->slots[pos] != 0)
    {
      id = table->slots[pos] - 1;
      if (table->hashes[pos] == h &&
          g_array_index (table->lengths, guint32, id) == len &&
          memcmp (g_ptr_array_index (table->strings, id), str, len) == 0)
        return id;
      pos = (pos + 1) & table->mask;
    }

  id = table->strings->len;
  /* Checked once per distinct string: the bytes stay the key, readers
   * get a repaired copy. */
  if (G_UNLIKELY (!text_is_valid (str, len)))
    {
      if (table->repaired == NULL)
        table->repaired = g_hash_table_new_full (NULL, NULL, NULL, g_free);
      g_hash_table_insert (table->repaired, GUINT_TO_POINTER (id), g_utf8_make_valid (str, len));
    }
  g_ptr_array_add (table->strings, (gpointer) store_text (table, str, len));
  g_array_append_val (table->lengths, (guint32) { len });
  table->slots[pos] = id + 1;
  table->hashes[pos] = h;
  if ((guint) table->strings->len * 2 > table->mask)
    intern_grow (table);
  return id;
}

/* For models that answer "which element is called X" after they are built:
 * a lookup that never adds. */
guint32
sl_intern_table_lookup (SlInternTable *table,
                        const char    *str,
                        gsize          len)
{
  guint32 h;
  guint pos;

  g_return_val_if_fail (table != NULL, G_MAXUINT32);
  g_return_val_if_fail (table->slots != NULL, G_MAXUINT32);

  h = hash_bytes (str, len);
  pos = h & table->mask;
  while (table->slots[pos] != 0)
    {
      guint32 id = table->slots[pos] - 1;

      if (table->hashes[pos] == h &&
          g_array_index (table->lengths, guint32, id) == len &&
          memcmp (g_ptr_array_index (table->strings, id), str, len) == 0)
        return id;
      pos = (pos + 1) & table->mask;
    }
  return G_MAXUINT32;
}

const char *
sl_intern_table_get (SlInternTable *table,
                     guint32        id)
{
  g_return_val_if_fail (table != NULL, "");

  if (id >= table->strings->len)
    return "";
  if (G_UNLIKELY (table->repaired != NULL))
    {
      const char *repaired = g_hash_table_lookup (table->repaired, GUINT_TO_POINTER (id));

      if (repaired != NULL)
        return repaired;
    }
  return g_ptr_array_index (table->strings, id);
}

guint
sl_intern_table_get_n_strings (SlInternTable *table)
{
  g_return_val_if_fail (table != NULL, 0);

  return table->strings->len;
}

/* A built trace never interns again: the slots are as big as the strings. */
void
sl_intern_table_freeze (SlInternTable *table)
{
  g_return_if_fail (table != NULL);

  g_clear_pointer (&table->slots, g_free);
  table->hashes = NULL;
}

gsize
sl_intern_table_get_memory_size (SlInternTable *table)
{
  gsize size = 0;

  g_return_val_if_fail (table != NULL, 0);

  for (guint i = 0; i < table->strings->len; i++)
    size += g_array_index (table->lengths, guint32, i) + 1 + sizeof (gpointer) + 4;
  if (table->slots != NULL)
    size += 2 * sizeof (guint32) * (table->mask + 1);
  return size;
}
