/* sl-lineage-row.c
 *
 * A row holds what its cells show and never changes: a note saved or a
 * brush moved replaces the rows, so a CSV export reading them on a
 * worker thread sees one state. The lineage table it points into is not
 * changed after loading, except for its filters, which no cell reads.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "sl-lineage-row.h"

struct _SlLineageRow
{
  GObject         parent_instance;

  SlLineageTable *table;
  guint           run;
  char           *label;
  char           *note;
  char           *tags;
  gboolean        marked;
};

G_DEFINE_FINAL_TYPE (SlLineageRow, sl_lineage_row, G_TYPE_OBJECT)

static void
sl_lineage_row_finalize (GObject *object)
{
  SlLineageRow *self = SL_LINEAGE_ROW (object);

  g_clear_object (&self->table);
  g_free (self->label);
  g_free (self->note);
  g_free (self->tags);

  G_OBJECT_CLASS (sl_lineage_row_parent_class)->finalize (object);
}

static void
sl_lineage_row_class_init (SlLineageRowClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = sl_lineage_row_finalize;
}

static void
sl_lineage_row_init (SlLineageRow *self)
{
}

/**
 * sl_lineage_row_new:
 * @run: an index into @table
 * @label: the name the table shows for the run
 * @note: (nullable): the note kept for it
 * @tags: (nullable): its tags, separated by ", "
 * @marked: whether it lies inside every brush of the parallel coordinates
 */
SlLineageRow *
sl_lineage_row_new (SlLineageTable *table,
                    guint           run,
                    const char     *label,
                    const char     *note,
                    const char     *tags,
                    gboolean        marked)
{
  SlLineageRow *self;

  g_return_val_if_fail (SL_IS_LINEAGE_TABLE (table), NULL);
  g_return_val_if_fail (run < sl_lineage_table_get_n_runs (table), NULL);

  self = g_object_new (SL_TYPE_LINEAGE_ROW, NULL);
  self->table = g_object_ref (table);
  self->run = run;
  self->label = g_strdup (label != NULL ? label : "");
  self->note = g_strdup (note != NULL ? note : "");
  self->tags = g_strdup (tags != NULL ? tags : "");
  self->marked = marked;
  return self;
}

SlLineageTable *
sl_lineage_row_get_table (SlLineageRow *self)
{
  g_return_val_if_fail (SL_IS_LINEAGE_ROW (self), NULL);
  return self->table;
}

guint
sl_lineage_row_get_run (SlLineageRow *self)
{
  g_return_val_if_fail (SL_IS_LINEAGE_ROW (self), 0);
  return self->run;
}

/* The run's folder. */
const char *
sl_lineage_row_get_path (SlLineageRow *self)
{
  g_return_val_if_fail (SL_IS_LINEAGE_ROW (self), NULL);
  return sl_lineage_run_get_path (sl_lineage_table_get_run (self->table, self->run));
}

const char *
sl_lineage_row_get_label (SlLineageRow *self)
{
  g_return_val_if_fail (SL_IS_LINEAGE_ROW (self), NULL);
  return self->label;
}

const char *
sl_lineage_row_get_note (SlLineageRow *self)
{
  g_return_val_if_fail (SL_IS_LINEAGE_ROW (self), NULL);
  return self->note;
}

const char *
sl_lineage_row_get_tags (SlLineageRow *self)
{
  g_return_val_if_fail (SL_IS_LINEAGE_ROW (self), NULL);
  return self->tags;
}

gboolean
sl_lineage_row_is_marked (SlLineageRow *self)
{
  g_return_val_if_fail (SL_IS_LINEAGE_ROW (self), FALSE);
  return self->marked;
}
