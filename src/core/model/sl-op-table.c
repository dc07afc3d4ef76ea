/* sl-op-table.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "sl-op-table.h"

struct _SlOpTable
{
  GObject     parent_instance;

  /* While building: rows by key, in arrival order. */
  GHashTable *type_index;
  GHashTable *instance_index;
  GPtrArray  *type_rows;
  GPtrArray  *instance_rows;
  gboolean    types_given;
  SlOpShareBasis type_share_basis;

  GListStore *types;
  GListStore *instances;
  guint64     n_executions;
  gint64      total_ns;
  gboolean    finished;
};

G_DEFINE_FINAL_TYPE (SlOpTable, sl_op_table, G_TYPE_OBJECT)

static void
sl_op_table_finalize (GObject *object)
{
  SlOpTable *self = (SlOpTable *)object;

  g_clear_pointer (&self->type_index, g_hash_table_unref);
  g_clear_pointer (&self->instance_index, g_hash_table_unref);
  g_clear_pointer (&self->type_rows, g_ptr_array_unref);
  g_clear_pointer (&self->instance_rows, g_ptr_array_unref);
  g_clear_object (&self->types);
  g_clear_object (&self->instances);

  G_OBJECT_CLASS (sl_op_table_parent_class)->finalize (object);
}

static void
sl_op_table_class_init (SlOpTableClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = sl_op_table_finalize;
}

static void
sl_op_table_init (SlOpTable *self)
{
  self->type_index = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->instance_index = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->type_rows = g_ptr_array_new_with_free_func (g_object_unref);
  self->instance_rows = g_ptr_array_new_with_free_func (g_object_unref);
  self->types = g_list_store_new (SL_TYPE_OP_ROW);
  self->instances = g_list_store_new (SL_TYPE_OP_ROW);
}

SlOpTable *
sl_op_table_new (void)
{
  return g_object_new (SL_TYPE_OP_TABLE, NULL);
}

static char *
type_key (const char *op_type,
          const char *core_type)
{
  return g_strconcat (op_type != NULL ? op_type : "", "\x1f", core_type != NULL ? core_type : "", NULL);
}

static SlOpRow *
ensure_type (SlOpTable  *self,
             const char *op_type,
             const char *core_type)
{
  char *key = type_key (op_type, core_type);
  SlOpRow *row = g_hash_table_lookup (self->type_index, key);

  if (row != NULL)
    {
      g_free (key);
      return row;
    }

  row = sl_op_row_new (op_type != NULL ? op_type : "", op_type, core_type);
  g_hash_table_insert (self->type_index, key, row);
  g_ptr_array_add (self->type_rows, row);
  return row;
}

static SlOpRow *
ensure_instance (SlOpTable  *self,
                 const char *name,
                 const char *op_type,
                 const char *core_type)
{
  SlOpRow *row = g_hash_table_lookup (self->instance_index, name);

  if (row != NULL)
    return row;

  row = sl_op_row_new (name, op_type, core_type);
  g_hash_table_insert (self->instance_index, g_strdup (name), row);
  g_ptr_array_add (self->instance_rows, row);
  return row;
}

/**
 * sl_op_table_add_execution:
 *
 * Returns: (transfer none): the instance row, to add shapes and the like
 */
SlOpRow *
sl_op_table_add_execution (SlOpTable  *self,
                           const char *name,
                           const char *op_type,
                           const char *core_type,
                           gint64      duration_ns,
                           gint64      wait_ns,
                           gint64      aicore_ns)
{
  SlOpRow *row;

  g_return_val_if_fail (SL_IS_OP_TABLE (self), NULL);
  g_return_val_if_fail (name != NULL, NULL);
  g_return_val_if_fail (!self->finished, NULL);

  row = ensure_instance (self, name, op_type, core_type);
  sl_op_row_add_execution (row, duration_ns, wait_ns, aicore_ns);

  if (!self->types_given)
    sl_op_row_add_execution (ensure_type (self, op_type, core_type), duration_ns, wait_ns, aicore_ns);

  return row;
}

/**
 * sl_op_table_add_type:
 *
 * Returns: (transfer none): the type row, for sl_op_row_set_totals()
 */
SlOpRow *
sl_op_table_add_type (SlOpTable  *self,
                      const char *op_type,
                      const char *core_type)
{
  g_return_val_if_fail (SL_IS_OP_TABLE (self), NULL);
  g_return_val_if_fail (!self->finished, NULL);

  /* A source's own statistics replace what executions added up to. */
  if (!self->types_given)
    {
      g_hash_table_remove_all (self->type_index);
      g_ptr_array_set_size (self->type_rows, 0);
      self->types_given = TRUE;
    }

  return ensure_type (self, op_type, core_type);
}

SlOpRow *
sl_op_table_add_instance (SlOpTable  *self,
                          const char *name,
                          const char *op_type)
{
  g_return_val_if_fail (SL_IS_OP_TABLE (self), NULL);
  g_return_val_if_fail (name != NULL, NULL);
  g_return_val_if_fail (!self->finished, NULL);

  return ensure_instance (self, name, op_type, NULL);
}

SlOpRow *
sl_op_table_lookup_instance (SlOpTable  *self,
                             const char *name)
{
  g_return_val_if_fail (SL_IS_OP_TABLE (self), NULL);
  g_return_val_if_fail (name != NULL, NULL);

  return g_hash_table_lookup (self->instance_index, name);
}

static int
compare_by_total (gconstpointer a,
                  gconstpointer b)
{
  SlOpRow *ra = *(SlOpRow **)a;
  SlOpRow *rb = *(SlOpRow **)b;
  gint64 ta = sl_op_row_get_total_ns (ra);
  gint64 tb = sl_op_row_get_total_ns (rb);

  if (ta != tb)
    return ta > tb ? -1 : 1;
  return g_strcmp0 (sl_op_row_get_name (ra), sl_op_row_get_name (rb));
}

static void
fill_store (GListStore *store,
            GPtrArray  *rows)
{
  g_ptr_array_sort (rows, compare_by_total);
  g_list_store_splice (store, 0, g_list_model_get_n_items (G_LIST_MODEL (store)), rows->pdata, rows->len);
}

static void
fill_ratios (GPtrArray *rows,
             gint64     total_ns)
{
  for (guint i = 0; i < rows->len; i++)
    {
      SlOpRow *row = g_ptr_array_index (rows, i);

      if (sl_op_row_get_ratio (row) < 0 && total_ns > 0)
        sl_op_row_set_ratio (row, 100.0 * sl_op_row_get_total_ns (row) / (double)total_ns);
    }
}

static gint64
sum_totals (GPtrArray *rows,
            guint64   *count)
{
  gint64 total = 0;

  *count = 0;
  for (guint i = 0; i < rows->len; i++)
    {
      total += sl_op_row_get_total_ns (g_ptr_array_index (rows, i));
      *count += sl_op_row_get_count (g_ptr_array_index (rows, i));
    }
  return total;
}

/* The smaller of two times where -1 means unknown. */
static gint64
min_known (gint64 a,
           gint64 b)
{
  if (a < 0)
    return b;
  if (b < 0)
    return a;
  return MIN (a, b);
}

/**
 * sl_op_table_finish:
 *
 * Derives averages and ratios, sorts by total time and publishes the two
 * lists. Call once, in the thread that built the table.
 */
void
sl_op_table_finish (SlOpTable *self)
{
  guint64 instance_count;
  gint64 instance_total;

  g_return_if_fail (SL_IS_OP_TABLE (self));
  g_return_if_fail (!self->finished);

  /* Types only listed in detail files (MindSpore without a type file). */
  if (self->type_rows->len == 0 && self->instance_rows->len > 0)
    {
      for (guint i = 0; i < self->instance_rows->len; i++)
        {
          SlOpRow *instance = g_ptr_array_index (self->instance_rows, i);
          SlOpRow *type = ensure_type (self, sl_op_row_get_op_type (instance), sl_op_row_get_core_type (instance));

          sl_op_row_set_totals (type, sl_op_row_get_count (type) + sl_op_row_get_count (instance),
                                sl_op_row_get_total_ns (type) + sl_op_row_get_total_ns (instance),
                                min_known (sl_op_row_get_min_ns (type), sl_op_row_get_min_ns (instance)),
                                MAX (sl_op_row_get_max_ns (type), sl_op_row_get_max_ns (instance)));
        }
    }

  self->total_ns = sum_totals (self->type_rows, &self->n_executions);
  instance_total = sum_totals (self->instance_rows, &instance_count);
  if (self->type_rows->len == 0)
    {
      self->total_ns = instance_total;
      self->n_executions = instance_count;
    }

  fill_ratios (self->type_rows, self->total_ns);
  fill_ratios (self->instance_rows, instance_total);
  fill_store (self->types, self->type_rows);
  fill_store (self->instances, self->instance_rows);
  self->finished = TRUE;
}

/**
 * sl_op_table_get_types:
 *
 * Returns: (transfer none): SlOpRow per op type (and core type), longest total first
 */
GListModel *
sl_op_table_get_types (SlOpTable *self)
{
  g_return_val_if_fail (SL_IS_OP_TABLE (self), NULL);
  return G_LIST_MODEL (self->types);
}

/**
 * sl_op_table_get_instances:
 *
 * Returns: (transfer none): SlOpRow per op instance (by name), longest total first
 */
GListModel *
sl_op_table_get_instances (SlOpTable *self)
{
  g_return_val_if_fail (SL_IS_OP_TABLE (self), NULL);
  return G_LIST_MODEL (self->instances);
}

guint64
sl_op_table_get_n_executions (SlOpTable *self)
{
  g_return_val_if_fail (SL_IS_OP_TABLE (self), 0);
  return self->n_executions;
}

gint64
sl_op_table_get_total_ns (SlOpTable *self)
{
  g_return_val_if_fail (SL_IS_OP_TABLE (self), 0);
  return self->total_ns;
}

gboolean
sl_op_table_is_empty (SlOpTable *self)
{
  g_return_val_if_fail (SL_IS_OP_TABLE (self), TRUE);
  return self->type_rows->len == 0 && self->instance_rows->len == 0;
}

void
sl_op_table_set_type_share_basis (SlOpTable     *self,
                                  SlOpShareBasis basis)
{
  g_return_if_fail (SL_IS_OP_TABLE (self));
  self->type_share_basis = basis;
}

SlOpShareBasis
sl_op_table_get_type_share_basis (SlOpTable *self)
{
  g_return_val_if_fail (SL_IS_OP_TABLE (self), SL_OP_SHARE_OF_TABLE);
  return self->type_share_basis;
}

const char *
sl_op_share_basis_to_string (SlOpShareBasis basis)
{
  switch (basis)
    {
    case SL_OP_SHARE_OF_AICORE: return "aicore_time";
    case SL_OP_SHARE_OF_MODEL: return "model_op_time";
    case SL_OP_SHARE_OF_TABLE:
    default: break;
    }
  return "op_time";
}

const char *
sl_op_share_basis_title (SlOpShareBasis basis)
{
  switch (basis)
    {
    /* Translators: the title of an op table's ratio column */
    case SL_OP_SHARE_OF_AICORE: return _("Share of AI Core Time (%)");
    case SL_OP_SHARE_OF_MODEL: return _("Share of Model Op Time (%)");
    case SL_OP_SHARE_OF_TABLE:
    default: break;
    }
  return _("Share of Op Time (%)");
}

const char *
sl_op_share_basis_description (SlOpShareBasis basis)
{
  switch (basis)
    {
    case SL_OP_SHARE_OF_AICORE:
      return _("The op's share of the time of the ops that ran on the AI Core, as the profiler's aicore type file gives it: AI CPU and communication ops are not in the whole.");
    case SL_OP_SHARE_OF_MODEL:
      return _("The op's share of the op time of its model, as msprof's op_statistic gives it (its Ratio(%) column).");
    case SL_OP_SHARE_OF_TABLE:
    default: break;
    }
  return _("The op's share of the total time of every op in this table, on every core type.");
}
