/* sl-description.c
 *
 * The rows hold what they act on weakly: a description may outlive the
 * document that made it (the Details panel keeps showing it), and then
 * its links and entries do nothing.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "sl-description.h"

typedef struct {
  SlDescriptionRowKind   kind;
  char                  *key;
  char                  *value;
  char                  *placeholder;
  char                  *tooltip;
  GWeakRef               object;
  SlDescriptionLinkFunc  link;
  SlDescriptionEditFunc  edit;
  guint64                target;
} Row;

struct _SlDescription
{
  GObject    parent_instance;

  GObject   *item;            /* weak: it may be the document itself */
  char      *icon_name;
  char      *title;
  GPtrArray *rows;            /* of Row */
};

G_DEFINE_FINAL_TYPE (SlDescription, sl_description, G_TYPE_OBJECT)

static void
row_free (gpointer data)
{
  Row *row = data;

  g_free (row->key);
  g_free (row->value);
  g_free (row->placeholder);
  g_free (row->tooltip);
  g_weak_ref_clear (&row->object);
  g_free (row);
}

static Row *
add_row (SlDescription        *self,
         SlDescriptionRowKind  kind,
         const char           *key,
         const char           *value)
{
  Row *row = g_new0 (Row, 1);

  row->kind = kind;
  row->key = g_strdup (key);
  row->value = g_strdup (value);
  g_weak_ref_init (&row->object, NULL);
  g_ptr_array_add (self->rows, row);
  return row;
}

static Row *
get_row (SlDescription *self,
         guint          row)
{
  g_return_val_if_fail (SL_IS_DESCRIPTION (self), NULL);
  g_return_val_if_fail (row < self->rows->len, NULL);

  return g_ptr_array_index (self->rows, row);
}

static void
sl_description_finalize (GObject *object)
{
  SlDescription *self = (SlDescription *)object;

  g_clear_weak_pointer (&self->item);
  g_clear_pointer (&self->icon_name, g_free);
  g_clear_pointer (&self->title, g_free);
  g_clear_pointer (&self->rows, g_ptr_array_unref);

  G_OBJECT_CLASS (sl_description_parent_class)->finalize (object);
}

static void
sl_description_class_init (SlDescriptionClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = sl_description_finalize;
}

static void
sl_description_init (SlDescription *self)
{
  self->rows = g_ptr_array_new_with_free_func (row_free);
}

SlDescription *
sl_description_new (void)
{
  return g_object_new (SL_TYPE_DESCRIPTION, NULL);
}

/**
 * sl_description_show_rows:
 * @item: (nullable): what the rows describe, when it is an object; held
 *   weakly
 * @rows: (array zero-terminated=1): label, value, label, value…
 *
 * Sets the header and starts the rows over with @rows.
 */
void
sl_description_show_rows (SlDescription      *self,
                          GObject            *item,
                          const char         *icon_name,
                          const char         *title,
                          const char * const *rows)
{
  g_return_if_fail (SL_IS_DESCRIPTION (self));
  g_return_if_fail (rows != NULL);

  g_set_weak_pointer (&self->item, item);
  g_free (self->icon_name);
  self->icon_name = g_strdup (icon_name);
  g_free (self->title);
  self->title = g_strdup (title);
  g_ptr_array_set_size (self->rows, 0);
  sl_description_add_rows (self, rows);
}

/**
 * sl_description_add_rows:
 * @rows: (array zero-terminated=1): label, value, label, value…
 *
 * Adds rows of text; a row without a value is left out.
 */
void
sl_description_add_rows (SlDescription      *self,
                         const char * const *rows)
{
  g_return_if_fail (SL_IS_DESCRIPTION (self));
  g_return_if_fail (rows != NULL);

  for (guint i = 0; rows[i] != NULL && rows[i + 1] != NULL; i += 2)
    {
      if (rows[i + 1][0] != '\0')
        add_row (self, SL_DESCRIPTION_ROW_TEXT, rows[i], rows[i + 1]);
    }
}

/**
 * sl_description_add_object_link:
 * @object: what the link acts on (a document), held weakly
 * @func: called with @object and @target when the value is clicked
 * @target: what to show (an item, a slice), as the caller encodes it
 *
 * Adds a row whose value is a link; left out without a value.
 */
void
sl_description_add_object_link (SlDescription         *self,
                                const char            *key,
                                const char            *value,
                                GObject               *object,
                                SlDescriptionLinkFunc  func,
                                guint64                target)
{
  Row *row;

  g_return_if_fail (SL_IS_DESCRIPTION (self));
  g_return_if_fail (G_IS_OBJECT (object));
  g_return_if_fail (func != NULL);

  if (value == NULL || value[0] == '\0')
    return;
  row = add_row (self, SL_DESCRIPTION_ROW_LINK, key, value);
  g_weak_ref_set (&row->object, object);
  row->link = func;
  row->target = target;
}

/**
 * sl_description_add_edit_row:
 * @text: (nullable): the value to edit
 * @placeholder: (nullable): shown while the value is empty
 * @tooltip: (nullable): how to edit it
 * @object: what the row edits (a document), held weakly
 * @func: called with @object, @key and the text when it is entered
 *
 * Adds a row whose value can be edited.
 */
void
sl_description_add_edit_row (SlDescription         *self,
                             const char            *key,
                             const char            *text,
                             const char            *placeholder,
                             const char            *tooltip,
                             GObject               *object,
                             SlDescriptionEditFunc  func)
{
  Row *row;

  g_return_if_fail (SL_IS_DESCRIPTION (self));
  g_return_if_fail (key != NULL);
  g_return_if_fail (G_IS_OBJECT (object));
  g_return_if_fail (func != NULL);

  row = add_row (self, SL_DESCRIPTION_ROW_EDIT, key, text != NULL ? text : "");
  row->placeholder = g_strdup (placeholder);
  row->tooltip = g_strdup (tooltip);
  g_weak_ref_set (&row->object, object);
  row->edit = func;
}

/**
 * sl_description_get_item:
 *
 * Returns: (transfer none) (nullable): what is described, when it is an
 *   object
 */
GObject *
sl_description_get_item (SlDescription *self)
{
  g_return_val_if_fail (SL_IS_DESCRIPTION (self), NULL);
  return self->item;
}

const char *
sl_description_get_icon_name (SlDescription *self)
{
  g_return_val_if_fail (SL_IS_DESCRIPTION (self), NULL);
  return self->icon_name;
}

const char *
sl_description_get_title (SlDescription *self)
{
  g_return_val_if_fail (SL_IS_DESCRIPTION (self), NULL);
  return self->title;
}

guint
sl_description_get_n_rows (SlDescription *self)
{
  g_return_val_if_fail (SL_IS_DESCRIPTION (self), 0);
  return self->rows->len;
}

SlDescriptionRowKind
sl_description_get_row_kind (SlDescription *self,
                             guint          row)
{
  Row *r = get_row (self, row);

  return r != NULL ? r->kind : SL_DESCRIPTION_ROW_TEXT;
}

const char *
sl_description_get_row_key (SlDescription *self,
                            guint          row)
{
  Row *r = get_row (self, row);

  return r != NULL ? r->key : NULL;
}

const char *
sl_description_get_row_value (SlDescription *self,
                              guint          row)
{
  Row *r = get_row (self, row);

  return r != NULL ? r->value : NULL;
}

const char *
sl_description_get_row_placeholder (SlDescription *self,
                                    guint          row)
{
  Row *r = get_row (self, row);

  return r != NULL ? r->placeholder : NULL;
}

const char *
sl_description_get_row_tooltip (SlDescription *self,
                                guint          row)
{
  Row *r = get_row (self, row);

  return r != NULL ? r->tooltip : NULL;
}

/**
 * sl_description_lookup:
 *
 * Returns: (nullable): the value of the first row labelled @key
 */
const char *
sl_description_lookup (SlDescription *self,
                       const char    *key)
{
  g_return_val_if_fail (SL_IS_DESCRIPTION (self), NULL);
  g_return_val_if_fail (key != NULL, NULL);

  for (guint i = 0; i < self->rows->len; i++)
    {
      Row *row = g_ptr_array_index (self->rows, i);

      if (g_strcmp0 (row->key, key) == 0)
        return row->value;
    }
  return NULL;
}

/**
 * sl_description_activate_row:
 *
 * Follows the link of @row, if it has one and its object lives.
 */
void
sl_description_activate_row (SlDescription *self,
                             guint          row)
{
  Row *r = get_row (self, row);
  g_autoptr(GObject) object = NULL;

  if (r == NULL || r->link == NULL)
    return;
  object = g_weak_ref_get (&r->object);
  if (object != NULL)
    r->link (object, r->target);
}

/**
 * sl_description_edit_row:
 *
 * Hands @text, entered in the editable @row, to its object, if it lives.
 */
void
sl_description_edit_row (SlDescription *self,
                         guint          row,
                         const char    *text)
{
  Row *r = get_row (self, row);
  g_autoptr(GObject) object = NULL;

  g_return_if_fail (text != NULL);

  if (r == NULL || r->edit == NULL)
    return;
  object = g_weak_ref_get (&r->object);
  if (object != NULL)
    r->edit (object, r->key, text);
}
