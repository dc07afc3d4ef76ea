/* sl-advisor-finding-row.c
 *
 * A finding of the Advisor tab: the row is its template,
 * sl-advisor-finding-row.ui, bound to an SlAdvisorFindingItem (severity,
 * share of the step, message, recommendation and the links to Operators,
 * the timeline and the graph; the row's own title, subtitle and tooltip
 * are bound when the item is set). The evidence and the
 * longest ops are grids of a size only the finding knows, built the
 * first time the row is expanded, so a report of hundreds of findings
 * costs hundreds of rows and no more.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "sl-count-format.h"
#include "sl-advisor-finding-row.h"
#include "sl-advisor-op-link.h"

/* What an expanded finding lists; Details lists everything. */
#define MAX_EVIDENCE_ROWS 30
#define MAX_OPS_ROWS      5

struct _SlAdvisorFindingRow
{
  AdwExpanderRow        parent_instance;

  SlAdvisorFindingItem *item;
  gboolean              filled;

  GtkListBoxRow        *evidence_row;
  GtkListBoxRow        *ops_row;
};

G_DEFINE_FINAL_TYPE (SlAdvisorFindingRow, sl_advisor_finding_row, ADW_TYPE_EXPANDER_ROW)

enum {
  PROP_0,
  PROP_ITEM,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* The style classes of @extra (space-separated) and the severity's. */
static GStrv
style_classes (gpointer    this_object,
               const char *severity_class,
               const char *extra)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_auto(GStrv) words = g_strsplit (extra != NULL ? extra : "", " ", -1);

  for (guint i = 0; words[i] != NULL; i++)
    if (words[i][0] != '\0')
      g_strv_builder_add (builder, words[i]);
  if (severity_class != NULL)
    g_strv_builder_add (builder, severity_class);
  return g_strv_builder_end (builder);
}

static GtkWidget *
new_grid (const char *heading)
{
  GtkWidget *grid = gtk_grid_new ();
  GtkWidget *label = gtk_label_new (heading);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  gtk_widget_add_css_class (label, "heading");
  gtk_grid_set_column_spacing (GTK_GRID (grid), 18);
  gtk_grid_set_row_spacing (GTK_GRID (grid), 4);
  gtk_widget_set_margin_bottom (label, 2);
  gtk_grid_attach (GTK_GRID (grid), label, 0, 0, 3, 1);
  gtk_widget_set_margin_start (grid, 12);
  gtk_widget_set_margin_end (grid, 12);
  gtk_widget_set_margin_top (grid, 10);
  gtk_widget_set_margin_bottom (grid, 10);
  return grid;
}

static GtkWidget *
new_cell (const char *text,
          gboolean    expand,
          const char *css_class)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_selectable (GTK_LABEL (label), TRUE);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_MIDDLE);
  gtk_label_set_width_chars (GTK_LABEL (label), expand ? 24 : 8);
  gtk_label_set_max_width_chars (GTK_LABEL (label), expand ? 60 : 36);
  gtk_widget_set_tooltip_text (label, text);
  gtk_widget_set_hexpand (label, expand);
  if (css_class != NULL)
    gtk_widget_add_css_class (label, css_class);
  return label;
}

static gboolean
names_op (SlAdvisorFinding *finding,
          const char       *name)
{
  GPtrArray *ops = sl_advisor_finding_get_ops (finding);

  for (guint i = 0; name != NULL && i < ops->len; i++)
    if (g_strcmp0 (sl_op_row_get_name (g_ptr_array_index (ops, i)), name) == 0)
      return TRUE;
  return FALSE;
}

static void
fill_evidence (SlAdvisorFindingRow *self)
{
  SlAdvisorFinding *finding = sl_advisor_finding_item_get_finding (self->item);
  guint n = sl_advisor_finding_get_n_evidence (finding);
  GtkWidget *grid;

  if (n == 0)
    return;

  grid = new_grid (_("Evidence"));
  for (guint i = 0; i < MIN (n, MAX_EVIDENCE_ROWS); i++)
    {
      const SlAdvisorEvidence *evidence = sl_advisor_finding_get_evidence (finding, i);
      g_autofree char *where = sl_advisor_evidence_format_location (evidence, TRUE);
      g_autofree char *full = sl_advisor_evidence_format_location (evidence, FALSE);
      GtkWidget *value = gtk_label_new (evidence->value);
      GtkWidget *name;

      gtk_label_set_xalign (GTK_LABEL (value), 0);
      gtk_label_set_wrap (GTK_LABEL (value), TRUE);
      gtk_label_set_wrap_mode (GTK_LABEL (value), PANGO_WRAP_WORD_CHAR);
      gtk_label_set_selectable (GTK_LABEL (value), TRUE);
      gtk_widget_add_css_class (value, "numeric");
      /* The value says the most: it wraps rather than lose its middle. */
      gtk_widget_set_hexpand (value, TRUE);
      if (names_op (finding, evidence->label))
        name = sl_advisor_op_link_new (evidence->label, FALSE);
      else
        {
          name = new_cell (evidence->label, FALSE, NULL);
          gtk_label_set_width_chars (GTK_LABEL (name), 16);
          gtk_widget_set_valign (name, GTK_ALIGN_START);
        }
      gtk_grid_attach (GTK_GRID (grid), name, 0, i + 1, 1, 1);
      gtk_grid_attach (GTK_GRID (grid), value, 1, i + 1, 1, 1);
      if (where != NULL)
        {
          GtkWidget *button = gtk_button_new_with_label (where);
          g_autofree char *tooltip = g_strdup_printf (_("Copy “%s”"), full);

          gtk_label_set_ellipsize (GTK_LABEL (gtk_button_get_child (GTK_BUTTON (button))), PANGO_ELLIPSIZE_START);
          gtk_label_set_max_width_chars (GTK_LABEL (gtk_button_get_child (GTK_BUTTON (button))), 40);
          gtk_widget_set_tooltip_text (button, tooltip);
          gtk_widget_set_halign (button, GTK_ALIGN_END);
          gtk_widget_set_valign (button, GTK_ALIGN_START);
          gtk_widget_add_css_class (button, "flat");
          gtk_widget_add_css_class (button, "sl-advisor-location");
          gtk_widget_add_css_class (button, "caption");
          gtk_actionable_set_action_name (GTK_ACTIONABLE (button), "advisor.copy");
          gtk_actionable_set_action_target (GTK_ACTIONABLE (button), "s", full);
          gtk_grid_attach (GTK_GRID (grid), button, 2, i + 1, 1, 1);
        }
    }
  if (n > MAX_EVIDENCE_ROWS)
    {
      g_autofree char *count = sl_count_format (n - MAX_EVIDENCE_ROWS);
      /* Translators: evidence rows beyond those listed in the report */
      g_autofree char *more = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "and %s more, all in Details",
                                                            "and %s more, all in Details", n - MAX_EVIDENCE_ROWS),
                                               count);

      gtk_grid_attach (GTK_GRID (grid), new_cell (more, TRUE, "dim-label"), 0, MAX_EVIDENCE_ROWS + 1, 3, 1);
    }
  gtk_list_box_row_set_child (self->evidence_row, grid);
  gtk_widget_set_visible (GTK_WIDGET (self->evidence_row), TRUE);
}

static void
fill_ops (SlAdvisorFindingRow *self)
{
  SlAdvisorFinding *finding = sl_advisor_finding_item_get_finding (self->item);
  SlTimeUnit unit = sl_advisor_finding_item_get_unit (self->item);
  GPtrArray *ops = sl_advisor_finding_get_ops (finding);
  GtkWidget *grid;

  if (ops->len == 0)
    return;

  grid = new_grid (_("Longest Ops"));
  for (guint i = 0; i < MIN (ops->len, MAX_OPS_ROWS); i++)
    {
      SlOpRow *op = g_ptr_array_index (ops, i);
      g_autofree char *total = sl_advisor_item_format_time (sl_op_row_get_total_ns (op), unit);
      g_autofree char *count = sl_count_format (sl_op_row_get_count (op));
      g_autofree char *calls = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s in %s call", "%s in %s calls",
                                                             sl_op_row_get_count (op)),
                                                total, count);
      const char *name = sl_op_row_get_name (op);

      gtk_grid_attach (GTK_GRID (grid), name != NULL && name[0] ? sl_advisor_op_link_new (name, TRUE)
                                                                : new_cell (sl_op_row_get_op_type (op), TRUE, NULL),
                       0, i + 1, 1, 1);
      gtk_grid_attach (GTK_GRID (grid), new_cell (sl_op_row_get_op_type (op), FALSE, "dim-label"), 1, i + 1, 1, 1);
      gtk_grid_attach (GTK_GRID (grid), new_cell (calls, FALSE, "numeric"), 2, i + 1, 1, 1);
    }
  gtk_list_box_row_set_child (self->ops_row, grid);
  gtk_widget_set_visible (GTK_WIDGET (self->ops_row), TRUE);
}

static void
expanded_cb (SlAdvisorFindingRow *self)
{
  if (self->filled || self->item == NULL || !adw_expander_row_get_expanded (ADW_EXPANDER_ROW (self)))
    return;
  self->filled = TRUE;
  fill_evidence (self);
  fill_ops (self);
}

static void
sl_advisor_finding_row_get_property (GObject    *object,
                                     guint       prop_id,
                                     GValue     *value,
                                     GParamSpec *pspec)
{
  SlAdvisorFindingRow *self = SL_ADVISOR_FINDING_ROW (object);

  switch (prop_id)
    {
    case PROP_ITEM:
      g_value_set_object (value, self->item);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sl_advisor_finding_row_set_property (GObject      *object,
                                     guint         prop_id,
                                     const GValue *value,
                                     GParamSpec   *pspec)
{
  SlAdvisorFindingRow *self = SL_ADVISOR_FINDING_ROW (object);

  switch (prop_id)
    {
    case PROP_ITEM:
      g_set_object (&self->item, g_value_get_object (value));
      /* Bound here: an expression on the row's own properties that reads
       * the row would be unwatched while the row is finalized. */
      if (self->item != NULL)
        {
          g_object_bind_property (self->item, "title", self, "title", G_BINDING_SYNC_CREATE);
          g_object_bind_property (self->item, "subtitle", self, "subtitle", G_BINDING_SYNC_CREATE);
          g_object_bind_property (self->item, "tooltip", self, "tooltip-text", G_BINDING_SYNC_CREATE);
        }
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sl_advisor_finding_row_dispose (GObject *object)
{
  SlAdvisorFindingRow *self = SL_ADVISOR_FINDING_ROW (object);

  gtk_widget_dispose_template (GTK_WIDGET (self), SL_TYPE_ADVISOR_FINDING_ROW);
  g_clear_object (&self->item);

  G_OBJECT_CLASS (sl_advisor_finding_row_parent_class)->dispose (object);
}

static void
sl_advisor_finding_row_class_init (SlAdvisorFindingRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = sl_advisor_finding_row_dispose;
  object_class->get_property = sl_advisor_finding_row_get_property;
  object_class->set_property = sl_advisor_finding_row_set_property;

  properties[PROP_ITEM] =
    g_param_spec_object ("item", NULL, NULL, SL_TYPE_ADVISOR_FINDING_ITEM,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_PREFIX "/ui/sl-advisor-finding-row.ui");
  gtk_widget_class_bind_template_child (widget_class, SlAdvisorFindingRow, evidence_row);
  gtk_widget_class_bind_template_child (widget_class, SlAdvisorFindingRow, ops_row);
  gtk_widget_class_bind_template_callback (widget_class, style_classes);

  g_type_ensure (SL_TYPE_ADVISOR_FINDING_ITEM);
}

static void
sl_advisor_finding_row_init (SlAdvisorFindingRow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  g_signal_connect (self, "notify::expanded", G_CALLBACK (expanded_cb), NULL);
}

GtkWidget *
sl_advisor_finding_row_new (SlAdvisorFindingItem *item)
{
  g_return_val_if_fail (SL_IS_ADVISOR_FINDING_ITEM (item), NULL);

  return g_object_new (SL_TYPE_ADVISOR_FINDING_ROW, "item", item, NULL);
}

SlAdvisorFindingItem *
sl_advisor_finding_row_get_item (SlAdvisorFindingRow *self)
{
  g_return_val_if_fail (SL_IS_ADVISOR_FINDING_ROW (self), NULL);
  return self->item;
}
