/* sl-tooltip.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "sl-tooltip.h"

/**
 * sl_label_set_no_hyphens:
 *
 * Keeps @label from putting a hyphen where it breaks a word: identifiers
 * and numbers must read as they are.
 */
void
sl_label_set_no_hyphens (GtkLabel *label)
{
  PangoAttrList *attrs;

  g_return_if_fail (GTK_IS_LABEL (label));

  attrs = gtk_label_get_attributes (label);
  attrs = attrs != NULL ? pango_attr_list_copy (attrs) : pango_attr_list_new ();
  pango_attr_list_insert (attrs, pango_attr_insert_hyphens_new (FALSE));
  gtk_label_set_attributes (label, attrs);
  pango_attr_list_unref (attrs);
}

/**
 * sl_widget_set_no_hyphens:
 *
 * Keeps every label in @widget (a row whose title is a file or op name
 * that may wrap) from breaking words with hyphens.
 */
void
sl_widget_set_no_hyphens (GtkWidget *widget)
{
  g_return_if_fail (GTK_IS_WIDGET (widget));

  if (GTK_IS_LABEL (widget))
    sl_label_set_no_hyphens (GTK_LABEL (widget));
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL; child = gtk_widget_get_next_sibling (child))
    sl_widget_set_no_hyphens (child);
}

/**
 * sl_label_set_wrap_for_text:
 *
 * Wraps @label's text at words, and between characters where a word is
 * longer than the line. Text with a word longer than SL_LABEL_LONG_WORD
 * characters (a path, a 10,000-character name) is wrapped between
 * characters only: Pango takes a hundred times longer to find that such
 * a word has no break than to break it.
 */
void
sl_label_set_wrap_for_text (GtkLabel *label)
{
  const char *text;
  guint run = 0, longest = 0;

  g_return_if_fail (GTK_IS_LABEL (label));

  text = gtk_label_get_text (label);
  for (const char *p = text; *p != '\0'; p = g_utf8_next_char (p))
    {
      run = g_unichar_isspace (g_utf8_get_char (p)) ? 0 : run + 1;
      longest = MAX (longest, run);
    }
  gtk_label_set_wrap (label, TRUE);
  gtk_label_set_wrap_mode (label, longest > SL_LABEL_LONG_WORD ? PANGO_WRAP_CHAR : PANGO_WRAP_WORD_CHAR);
}

/**
 * sl_tooltip_label_new:
 *
 * Returns: (transfer floating): a label as the tooltips show text
 */
GtkWidget *
sl_tooltip_label_new (void)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_max_width_chars (GTK_LABEL (label), SL_TOOLTIP_MAX_WIDTH_CHARS);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  sl_label_set_no_hyphens (GTK_LABEL (label));
  return label;
}

/* One label a tooltip, kept: the tooltip is asked again at each move of
 * the pointer, and a new widget each time would be laid out anew. */
static GtkLabel *
set_label (GtkTooltip *tooltip)
{
  GtkWidget *label = g_object_get_data (G_OBJECT (tooltip), "sl-tooltip-label");

  if (label == NULL)
    {
      label = g_object_ref_sink (sl_tooltip_label_new ());
      g_object_set_data_full (G_OBJECT (tooltip), "sl-tooltip-label", label, g_object_unref);
    }
  gtk_tooltip_set_custom (tooltip, label);
  return GTK_LABEL (label);
}

/**
 * sl_tooltip_set_text:
 *
 * Shows @text in @tooltip, wrapped at SL_TOOLTIP_MAX_WIDTH_CHARS.
 */
void
sl_tooltip_set_text (GtkTooltip *tooltip,
                     const char *text)
{
  g_return_if_fail (GTK_IS_TOOLTIP (tooltip));

  GtkLabel *label = set_label (tooltip);

  gtk_label_set_text (label, text != NULL ? text : "");
  sl_label_set_wrap_for_text (label);
}

/**
 * sl_tooltip_set_markup:
 *
 * Shows @markup in @tooltip, wrapped at SL_TOOLTIP_MAX_WIDTH_CHARS.
 */
void
sl_tooltip_set_markup (GtkTooltip *tooltip,
                       const char *markup)
{
  GtkLabel *label;

  g_return_if_fail (GTK_IS_TOOLTIP (tooltip));

  label = set_label (tooltip);
  gtk_label_set_markup (label, markup != NULL ? markup : "");
  sl_label_set_wrap_for_text (label);
}

/**
 * sl_tooltip_get_label:
 *
 * Returns: (transfer none) (nullable): the label last shown in @tooltip by
 *   these functions
 */
GtkLabel *
sl_tooltip_get_label (GtkTooltip *tooltip)
{
  g_return_val_if_fail (GTK_IS_TOOLTIP (tooltip), NULL);

  return g_object_get_data (G_OBJECT (tooltip), "sl-tooltip-label");
}

static gboolean
long_tooltip_cb (GtkWidget  *widget,
                 int         x,
                 int         y,
                 gboolean    keyboard,
                 GtkTooltip *tooltip,
                 gpointer    user_data)
{
  const char *text = g_object_get_data (G_OBJECT (widget), "sl-long-tooltip");

  if (text == NULL || text[0] == '\0')
    return FALSE;
  sl_tooltip_set_text (tooltip, text);
  return TRUE;
}

/**
 * sl_widget_get_long_tooltip:
 *
 * Returns: (nullable): the text sl_widget_set_long_tooltip() gave @widget
 */
const char *
sl_widget_get_long_tooltip (GtkWidget *widget)
{
  g_return_val_if_fail (GTK_IS_WIDGET (widget), NULL);

  return g_object_get_data (G_OBJECT (widget), "sl-long-tooltip");
}

/**
 * sl_widget_set_long_tooltip:
 * @text: (nullable): the whole of a name shown cut, or %NULL for none
 *
 * Like gtk_widget_set_tooltip_text(), for text that may be a long name
 * with no space in it.
 */
void
sl_widget_set_long_tooltip (GtkWidget  *widget,
                            const char *text)
{
  g_return_if_fail (GTK_IS_WIDGET (widget));

  if (g_object_get_data (G_OBJECT (widget), "sl-long-tooltip-connected") == NULL)
    {
      g_signal_connect (widget, "query-tooltip", G_CALLBACK (long_tooltip_cb), NULL);
      g_object_set_data (G_OBJECT (widget), "sl-long-tooltip-connected", GINT_TO_POINTER (TRUE));
    }
  g_object_set_data_full (G_OBJECT (widget), "sl-long-tooltip", g_strdup (text), g_free);
  gtk_widget_set_has_tooltip (widget, text != NULL && text[0] != '\0');
}
