/* sl-tensor-compare-button.c
 *
 * The button only opens the "tensor-compare" document with the address
 * of both paths, NPU then BENCH, through win.open-paths; the page reads
 * and pairs them.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "sl-document-address.h"
#include "sl-tensor-compare-button.h"

static int
compare_paths (gconstpointer a,
               gconstpointer b)
{
  return g_strcmp0 (*(const char * const *)a, *(const char * const *)b);
}

static char *
side_of (SlFinding *finding)
{
  const char *path = sl_finding_get_path (finding);

  switch (sl_finding_get_kind (finding))
    {
    case SL_FINDING_MSPROBE_DUMP:
      /* A dump.json opened by itself stands for its folder. */
      if (g_str_has_suffix (path, ".json"))
        return g_path_get_dirname (path);
      return g_strdup (path);
    case SL_FINDING_TENSOR:
      return g_path_get_dirname (path);
    default:
      return NULL;
    }
}

/**
 * sl_tensor_compare_list_sides:
 *
 * Returns: (transfer full) (element-type utf8): the paths, sorted
 */
GPtrArray *
sl_tensor_compare_list_sides (GListModel *findings)
{
  g_autoptr(GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  GPtrArray *sides = g_ptr_array_new_with_free_func (g_free);

  g_return_val_if_fail (G_IS_LIST_MODEL (findings), sides);

  for (guint i = 0; i < g_list_model_get_n_items (findings); i++)
    {
      g_autoptr(SlFinding) finding = g_list_model_get_item (findings, i);
      g_autofree char *side = side_of (finding);

      if (side != NULL && !g_hash_table_contains (seen, side))
        {
          g_ptr_array_add (sides, g_strdup (side));
          g_hash_table_add (seen, g_steal_pointer (&side));
        }
    }
  g_ptr_array_sort (sides, compare_paths);
  return sides;
}

guint
sl_tensor_compare_guess_bench (GPtrArray *sides)
{
  static const char * const hints[] = { "bench", "gpu", "cpu", "golden", "baseline", "standard" };

  g_return_val_if_fail (sides != NULL, 1);

  for (guint i = 0; i < sides->len; i++)
    {
      g_autofree char *name = g_path_get_basename (g_ptr_array_index (sides, i));
      g_autofree char *folded = g_utf8_casefold (name, -1);

      for (guint h = 0; h < G_N_ELEMENTS (hints); h++)
        if (strstr (folded, hints[h]) != NULL)
          return i;
    }
  return 1;
}

static char *
display_name (const char *path,
              const char *root)
{
  gsize n = root != NULL ? strlen (root) : 0;

  if (n > 0 && g_str_has_prefix (path, root) && path[n] == G_DIR_SEPARATOR && path[n + 1] != '\0')
    return g_strdup (path + n + 1);
  if (g_strcmp0 (path, root) == 0)
    return g_strdup (".");
  return g_path_get_basename (path);
}

typedef struct {
  GPtrArray   *sides;
  GtkDropDown *npu;
  GtkDropDown *bench;
  GtkWidget   *compare;
  GtkWidget   *menu_button;
} Chooser;

static void
chooser_free (Chooser *chooser)
{
  g_ptr_array_unref (chooser->sides);
  g_free (chooser);
}

static void
choice_changed_cb (Chooser *chooser)
{
  gtk_widget_set_sensitive (chooser->compare,
                            gtk_drop_down_get_selected (chooser->npu) != gtk_drop_down_get_selected (chooser->bench));
}

static void
compare_clicked_cb (GtkButton *button,
                    Chooser   *chooser)
{
  guint npu = gtk_drop_down_get_selected (chooser->npu);
  guint bench = gtk_drop_down_get_selected (chooser->bench);
  g_autoptr(SlDocumentAddress) address = NULL;

  if (npu >= chooser->sides->len || bench >= chooser->sides->len || npu == bench)
    return;
  address = sl_document_address_new_pair (g_ptr_array_index (chooser->sides, npu),
                                          g_ptr_array_index (chooser->sides, bench));
  gtk_menu_button_popdown (GTK_MENU_BUTTON (chooser->menu_button));
  gtk_widget_activate_action (chooser->menu_button, "win.open-paths", "(s@asv)", "tensor-compare",
                              sl_document_address_to_variant (address), g_variant_new ("()"));
}

static GtkWidget *
side_dropdown (GtkStringList *names,
               guint          selected)
{
  GtkWidget *dropdown = gtk_drop_down_new (G_LIST_MODEL (g_object_ref (names)), NULL);

  gtk_drop_down_set_selected (GTK_DROP_DOWN (dropdown), selected);
  gtk_widget_set_hexpand (dropdown, TRUE);
  return dropdown;
}

static GtkWidget *
grid_label (const char *text,
            GtkWidget  *mnemonic)
{
  GtkWidget *label = gtk_label_new_with_mnemonic (text);

  gtk_label_set_xalign (GTK_LABEL (label), 0.0f);
  gtk_label_set_mnemonic_widget (GTK_LABEL (label), mnemonic);
  return label;
}

static GtkWidget *
build_popover (Chooser    *chooser,
               const char *root)
{
  g_autoptr(GtkStringList) names = gtk_string_list_new (NULL);
  guint bench = MIN (sl_tensor_compare_guess_bench (chooser->sides), chooser->sides->len - 1);
  GtkWidget *popover = gtk_popover_new ();
  GtkWidget *grid = gtk_grid_new ();
  GtkWidget *heading = gtk_label_new (_("Compare Two Tensor Dumps"));

  for (guint i = 0; i < chooser->sides->len; i++)
    {
      g_autofree char *name = display_name (g_ptr_array_index (chooser->sides, i), root);
      gtk_string_list_append (names, name);
    }

  chooser->npu = GTK_DROP_DOWN (side_dropdown (names, bench == 0 ? 1 : 0));
  chooser->bench = GTK_DROP_DOWN (side_dropdown (names, bench));
  chooser->compare = gtk_button_new_with_mnemonic (_("_Compare"));
  gtk_widget_add_css_class (chooser->compare, "suggested-action");
  gtk_widget_set_halign (chooser->compare, GTK_ALIGN_END);
  gtk_widget_add_css_class (heading, "heading");
  gtk_label_set_xalign (GTK_LABEL (heading), 0.0f);

  gtk_grid_set_row_spacing (GTK_GRID (grid), 8);
  gtk_grid_set_column_spacing (GTK_GRID (grid), 12);
  gtk_widget_set_margin_start (grid, 6);
  gtk_widget_set_margin_end (grid, 6);
  gtk_widget_set_margin_top (grid, 6);
  gtk_widget_set_margin_bottom (grid, 6);
  gtk_grid_attach (GTK_GRID (grid), heading, 0, 0, 2, 1);
  /* Translators: the run under test, and the run it is compared with */
  gtk_grid_attach (GTK_GRID (grid), grid_label (_("_NPU"), GTK_WIDGET (chooser->npu)), 0, 1, 1, 1);
  gtk_grid_attach (GTK_GRID (grid), GTK_WIDGET (chooser->npu), 1, 1, 1, 1);
  gtk_grid_attach (GTK_GRID (grid), grid_label (_("_Benchmark"), GTK_WIDGET (chooser->bench)), 0, 2, 1, 1);
  gtk_grid_attach (GTK_GRID (grid), GTK_WIDGET (chooser->bench), 1, 2, 1, 1);
  gtk_grid_attach (GTK_GRID (grid), chooser->compare, 0, 3, 2, 1);
  gtk_popover_set_child (GTK_POPOVER (popover), grid);

  g_signal_connect_swapped (chooser->npu, "notify::selected", G_CALLBACK (choice_changed_cb), chooser);
  g_signal_connect_swapped (chooser->bench, "notify::selected", G_CALLBACK (choice_changed_cb), chooser);
  g_signal_connect (chooser->compare, "clicked", G_CALLBACK (compare_clicked_cb), chooser);
  choice_changed_cb (chooser);
  return popover;
}

static gboolean
has_kind (GListModel    *findings,
          SlFindingKind  kind)
{
  for (guint i = 0; i < g_list_model_get_n_items (findings); i++)
    {
      g_autoptr(SlFinding) finding = g_list_model_get_item (findings, i);

      if (sl_finding_get_kind (finding) == kind)
        return TRUE;
    }
  return FALSE;
}

GtkWidget *
sl_tensor_compare_button_new (GListModel    *findings,
                              const char    *root,
                              SlFindingKind *group)
{
  g_autoptr(GPtrArray) sides = NULL;
  GtkWidget *button;
  Chooser *chooser;

  g_return_val_if_fail (G_IS_LIST_MODEL (findings), NULL);
  g_return_val_if_fail (group != NULL, NULL);

  sides = sl_tensor_compare_list_sides (findings);
  if (sides->len < 2)
    return NULL;

  *group = has_kind (findings, SL_FINDING_MSPROBE_DUMP) ? SL_FINDING_MSPROBE_DUMP : SL_FINDING_TENSOR;
  button = gtk_menu_button_new ();
  gtk_menu_button_set_label (GTK_MENU_BUTTON (button), _("Compare Tensors"));
  gtk_widget_set_valign (button, GTK_ALIGN_CENTER);
  gtk_widget_set_tooltip_text (button, _("Where the NPU run departs from its benchmark: every tensor pair compared, the first divergence"));

  chooser = g_new0 (Chooser, 1);
  chooser->sides = g_steal_pointer (&sides);
  chooser->menu_button = button;
  gtk_menu_button_set_popover (GTK_MENU_BUTTON (button), build_popover (chooser, root));
  g_object_set_data_full (G_OBJECT (button), "sl-chooser", chooser, (GDestroyNotify)chooser_free);
  return button;
}
