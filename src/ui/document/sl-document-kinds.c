/* sl-document-kinds.c: the one place where views are registered
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Adding a view: a folder under src/ui/ with an SlDocument subtype, and an
 * entry here naming the findings it opens.
 */
#include "config.h"

#include <glib/gi18n.h>

#include "sl-count-format.h"
#include "sl-cluster-page.h"
#include "sl-compare-page.h"
#include "sl-conversion-page.h"
#include "sl-conversion-pair.h"
#include "sl-dataset-graph-page.h"
#include "sl-document-registry.h"
#include "sl-finding-page.h"
#include "sl-folder-page.h"
#include "sl-graph-page.h"
#include "sl-lineage-page.h"
#include "sl-pipeline-page.h"
#include "sl-profile-page.h"
#include "sl-scalars-page.h"
#include "sl-tensor-compare-button.h"
#include "sl-tensor-compare-page.h"
#include "sl-timeline-page.h"
#include "sl-tuner-page.h"

static void
setup_folder (SlDocument *document,
              GObject    *item)
{
  if (SL_IS_FOLDER (item))
    sl_folder_page_set_folder (SL_FOLDER_PAGE (document), SL_FOLDER (item));
}

static void
setup_finding (SlDocument *document,
               GObject    *item)
{
  if (SL_IS_FINDING (item))
    sl_finding_page_set_finding (SL_FINDING_PAGE (document), SL_FINDING (item));
}

/* The finding knows whether the profile has a timeline: no walk needed. */
static void
setup_profile (SlDocument *document,
               GObject    *item)
{
  if (SL_IS_FINDING (item))
    sl_profile_page_set_has_timeline (SL_PROFILE_PAGE (document), sl_finding_has_timeline (SL_FINDING (item)));
}

static const SlFindingKind summary_findings[] = {
  SL_FINDING_SUMMARY_RUN, SL_FINDING_TENSORBOARD_RUN, SL_FINDING_N_KINDS
};
static const SlFindingKind trace_findings[] = {
  SL_FINDING_TRACE, SL_FINDING_N_KINDS
};
static const SlFindingKind profile_findings[] = {
  SL_FINDING_MINDSPORE_PROFILER, SL_FINDING_MSPROF, SL_FINDING_ASCEND_PROFILER, SL_FINDING_PROFILER_DB,
  SL_FINDING_N_KINDS
};

static const SlFindingKind graph_findings[] = {
  SL_FINDING_GRAPH, SL_FINDING_N_KINDS
};
static const SlFindingKind mindspore_runs[] = {
  SL_FINDING_SUMMARY_RUN, SL_FINDING_N_KINDS
};
static const SlFindingKind graph_runs[] = {
  SL_FINDING_SUMMARY_RUN, SL_FINDING_TENSORBOARD_RUN, SL_FINDING_N_KINDS
};

/* The detector does not decode summaries, so any MindSpore run may hold
 * a graph_def; the page says so when it holds none. A TensorBoard run
 * offers its graph when the detector saw a graph_def or meta_graph_def
 * record in the head of one of its files. */
static gboolean
run_has_graph (SlFinding *finding)
{
  if (sl_finding_get_kind (finding) != SL_FINDING_TENSORBOARD_RUN)
    return TRUE;
  gboolean has_graph = FALSE;

  return sl_finding_lookup_boolean_detail (finding, SL_FINDING_DETAIL_GRAPH, &has_graph) && has_graph;
}

static gboolean
run_has_lineage (SlFinding *finding)
{
  gboolean has_lineage = FALSE;

  return sl_finding_lookup_boolean_detail (finding, SL_FINDING_DETAIL_HAS_LINEAGE, &has_lineage) && has_lineage;
}

static const SlFindingKind cluster_findings[] = {
  SL_FINDING_CLUSTER, SL_FINDING_N_KINDS
};

static const SlFindingKind pipeline_findings[] = {
  SL_FINDING_PIPELINE, SL_FINDING_N_KINDS
};
static const SlFindingKind tuner_findings[] = {
  SL_FINDING_TUNER_CONFIG, SL_FINDING_N_KINDS
};

/* What `sightline --document` names besides the kinds: pages of a
 * document, and the name the folder page's button gives a kind. */
static const SlDocumentAlias scalars_aliases[] = {
  { "histograms", "histograms" }, { "images", "images" }, { "tensors", "tensors" }, { NULL, NULL }
};
static const SlDocumentAlias profile_aliases[] = {
  { "operators", "ops" }, { "apis", "apis" }, { "steps", "steps" }, { "memory", "memory" },
  { "communication", "communication" }, { "advisor", "advisor" }, { NULL, NULL }
};
static const SlDocumentAlias compare_aliases[] = {
  { "compare-profiles", NULL }, { NULL, NULL }
};

static void
show_scalars_page (SlDocument *document,
                   const char *page)
{
  sl_scalars_page_show_view (SL_SCALARS_PAGE (document), page);
}

static void
show_profile_page (SlDocument *document,
                   const char *page)
{
  sl_profile_page_show_view (SL_PROFILE_PAGE (document), page);
}

static gboolean
is_profile (SlFinding *finding)
{
  for (guint i = 0; profile_findings[i] != SL_FINDING_N_KINDS; i++)
    {
      if (profile_findings[i] == sl_finding_get_kind (finding))
        return TRUE;
    }
  return FALSE;
}

/* A trace, or a profile's timeline (the profile page opens it so). */
static gboolean
holds_timeline (SlFinding *finding)
{
  return sl_finding_get_kind (finding) == SL_FINDING_TRACE ||
         (is_profile (finding) && sl_finding_has_timeline (finding));
}

/* The folder page offers Lineage for MindSpore runs with lineage and for
 * TensorBoard runs. */
static gboolean
holds_lineage (SlFinding *finding)
{
  return sl_finding_get_kind (finding) == SL_FINDING_TENSORBOARD_RUN ||
         (sl_finding_get_kind (finding) == SL_FINDING_SUMMARY_RUN && run_has_lineage (finding));
}

static gboolean
holds_tensors (SlFinding *finding)
{
  return sl_finding_get_kind (finding) == SL_FINDING_TENSOR ||
         sl_finding_get_kind (finding) == SL_FINDING_MSPROBE_DUMP;
}

/* What the folder page offers for the findings of a folder taken
 * together. Each kind adds its buttons; the folder page puts a later
 * kind's buttons before an earlier one's, so a run group reads Lineage,
 * Compare Datasets, Compare Runs. */

static guint
count_kind (GListModel    *findings,
            SlFindingKind  kind)
{
  guint n = 0;

  for (guint i = 0; i < g_list_model_get_n_items (findings); i++)
    {
      g_autoptr(SlFinding) finding = g_list_model_get_item (findings, i);

      n += sl_finding_get_kind (finding) == kind;
    }
  return n;
}

static guint
count_runs_with_lineage (GListModel *findings)
{
  guint n = 0;

  for (guint i = 0; i < g_list_model_get_n_items (findings); i++)
    {
      g_autoptr(SlFinding) finding = g_list_model_get_item (findings, i);

      n += sl_finding_get_kind (finding) == SL_FINDING_SUMMARY_RUN && run_has_lineage (finding);
    }
  return n;
}

/* Several runs are worth seeing together: one chart per tag, runs
 * overlaid; a button in each group of runs. */
static void
add_scalars_buttons (GListModel         *findings,
                     const char         *folder_path,
                     SlFolderButtonFunc  add,
                     gpointer            data)
{
  const SlDocumentKind *kind = sl_document_registry_lookup ("scalars");

  for (guint k = 0; summary_findings[k] != SL_FINDING_N_KINDS; k++)
    {
      guint n_runs = count_kind (findings, summary_findings[k]);
      g_autofree char *count = NULL;
      g_autofree char *label = NULL;

      if (n_runs < 2)
        continue;
      count = sl_count_format (n_runs);
      label = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Compare %s Run", "Compare All %s Runs", n_runs), count);
      add (sl_document_registry_new_button (kind, folder_path, label,
                                            _("Training curves of every run in this folder, overlaid, one chart per tag")),
           summary_findings[k], data);
    }
}

/* The dataset pipelines of every run with lineage, side by side. */
static void
add_dataset_graph_buttons (GListModel         *findings,
                           const char         *folder_path,
                           SlFolderButtonFunc  add,
                           gpointer            data)
{
  const SlDocumentKind *kind = sl_document_registry_lookup ("dataset-graph");
  guint n_runs = count_runs_with_lineage (findings);
  g_autofree char *count = NULL;
  g_autofree char *label = NULL;

  if (n_runs < 2)
    return;
  count = sl_count_format (n_runs);
  label = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Compare %s Dataset", "Compare %s Datasets", n_runs), count);
  add (sl_document_registry_new_button (kind, folder_path, label,
                                        _("The dataset pipelines of every run with lineage here, side by side, with the parameters that differ marked")),
       SL_FINDING_SUMMARY_RUN, data);
}

/* Every run's parameters and results side by side: for MindSpore runs
 * with lineage, and for TensorBoard runs, which may hold HParams
 * sessions. */
static void
add_lineage_buttons (GListModel         *findings,
                     const char         *folder_path,
                     SlFolderButtonFunc  add,
                     gpointer            data)
{
  const SlDocumentKind *kind = sl_document_registry_lookup ("lineage");
  const char *tooltip = _("Every run's hyperparameters, metrics, dataset and model in one table, with parallel coordinates and parameter importance");

  if (count_runs_with_lineage (findings) > 1)
    add (sl_document_registry_new_button (kind, folder_path, _("Lineage"), tooltip), SL_FINDING_SUMMARY_RUN, data);
  if (count_kind (findings, SL_FINDING_TENSORBOARD_RUN) > 1)
    add (sl_document_registry_new_button (kind, folder_path, _("Lineage"), tooltip), SL_FINDING_TENSORBOARD_RUN, data);
}

static int
compare_findings_by_path (gconstpointer a,
                          gconstpointer b)
{
  return g_strcmp0 (sl_finding_get_path (*(SlFinding * const *)a), sl_finding_get_path (*(SlFinding * const *)b));
}

/* Two profiles or more: is the newer run faster? The first two by path
 * (so the older run of two named by date or number is the baseline), in
 * the group of the baseline's kind; the page changes either side among
 * the workspace's profiles. The address holds BASE, then COMPARISON. */
static void
add_compare_buttons (GListModel         *findings,
                     const char         *folder_path,
                     SlFolderButtonFunc  add,
                     gpointer            data)
{
  const SlDocumentKind *kind = sl_document_registry_lookup ("compare");
  g_autoptr(GPtrArray) profiles = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(SlDocumentAddress) address = NULL;
  g_autofree char *base_name = NULL;
  g_autofree char *comparison_name = NULL;
  g_autofree char *tooltip = NULL;
  SlFinding *base;
  SlFinding *comparison;

  for (guint i = 0; i < g_list_model_get_n_items (findings); i++)
    {
      SlFinding *finding = g_list_model_get_item (findings, i);

      if (is_profile (finding))
        g_ptr_array_add (profiles, finding);
      else
        g_object_unref (finding);
    }
  if (profiles->len < 2)
    return;
  g_ptr_array_sort (profiles, compare_findings_by_path);

  base = g_ptr_array_index (profiles, 0);
  comparison = g_ptr_array_index (profiles, 1);
  address = sl_document_address_new_pair (sl_finding_get_path (base), sl_finding_get_path (comparison));
  base_name = sl_finding_dup_display_name (base);
  comparison_name = sl_finding_dup_display_name (comparison);
  /* Translators: a tooltip; the comparison and the baseline profiles */
  tooltip = g_strdup_printf (_("Where %s is faster or slower than %s: the step breakdown, op types and kernels"),
                             comparison_name, base_name);
  add (sl_document_registry_new_address_button (kind, address, _("Compare Profiles"), tooltip),
       sl_finding_get_kind (base), data);
}

/* Two tensor dumps: where does the NPU run depart from its benchmark? */
static void
add_tensor_compare_buttons (GListModel         *findings,
                            const char         *folder_path,
                            SlFolderButtonFunc  add,
                            gpointer            data)
{
  SlFindingKind group;
  GtkWidget *button = sl_tensor_compare_button_new (findings, folder_path, &group);

  if (button != NULL)
    add (button, group, data);
}

static gboolean
is_graph (SlFinding *finding)
{
  return sl_finding_get_kind (finding) == SL_FINDING_GRAPH;
}

/* A model and the .om ATC made of it: their ops side by side, and both
 * graphs. */
static void
add_conversion_buttons (GListModel         *findings,
                        const char         *folder_path,
                        SlFolderButtonFunc  add,
                        gpointer            data)
{
  const SlDocumentKind *kind = sl_document_registry_lookup ("conversion");
  g_autoptr(GPtrArray) paths = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(SlDocumentAddress) address = NULL;
  GtkWidget *button;
  guint source, converted;

  for (guint i = 0; i < g_list_model_get_n_items (findings); i++)
    {
      g_autoptr(SlFinding) finding = g_list_model_get_item (findings, i);

      if (is_graph (finding))
        g_ptr_array_add (paths, g_strdup (sl_finding_get_path (finding)));
    }
  g_ptr_array_add (paths, NULL);
  if (!sl_conversion_pair_pick ((const char * const *) paths->pdata, &source, &converted))
    return;
  address = sl_document_address_new_pair (g_ptr_array_index (paths, source), g_ptr_array_index (paths, converted));
  button = sl_document_registry_new_address_button (kind, address, _("Open Source and Model"),
                                                    _("The converted model’s ops against the source model’s, and both graphs"));
  gtk_actionable_set_action_target_value (GTK_ACTIONABLE (button),
                                          g_variant_new ("(s@asv)", kind->id, sl_document_address_to_variant (address),
                                                         sl_conversion_page_new_open_request ()));
  add (button, SL_FINDING_GRAPH, data);
}

/* Profiles and timelines link an op to the graph of the same job: the
 * nearest graph or MindSpore run in the workspace. */
static const SlFindingKind op_graphs[] = {
  SL_FINDING_GRAPH, SL_FINDING_SUMMARY_RUN, SL_FINDING_N_KINDS
};

static const SlDocumentKind builtin_kinds[] = {
  /* An opened folder: what was found in it. */
  { "folder", sl_folder_page_get_type, NULL, "folder-symbolic", NULL, FALSE, setup_folder },
  /* What is known of a finding no view reads yet. */
  { "finding", sl_finding_page_get_type, NULL, "sl-graph-symbolic", NULL, TRUE, setup_finding },
  /* Translators: the title of a document tab; %s is a folder name. */
  { "scalars", sl_scalars_page_get_type, N_("Scalars: %s"), "sl-chart-symbolic", summary_findings, FALSE, NULL,
    .aliases = scalars_aliases, .show_page = show_scalars_page, .add_folder_buttons = add_scalars_buttons },
  /* Translators: the title of a document tab; %s is a file or folder name. */
  { "timeline", sl_timeline_page_get_type, N_("Timeline: %s"), "sl-timeline-symbolic", trace_findings, FALSE, NULL,
    .holds = holds_timeline },
  /* Translators: the title of a document tab; %s is a folder name. */
  { "profile", sl_profile_page_get_type, N_("Profile: %s"), "sl-timeline-symbolic", profile_findings, FALSE, setup_profile,
    .aliases = profile_aliases, .show_page = show_profile_page },
  /* Translators: the title of a document tab; %s is a file name. */
  { "pipeline", sl_pipeline_page_get_type, N_("Pipeline: %s"), "sl-graph-symbolic", pipeline_findings, FALSE, NULL },
  /* A .pb graph, or the graphs of a MindSpore or TensorBoard run (a
   * button on its row).
   * Translators: the title of a document tab; %s is a file or folder name. */
  { "graph", sl_graph_page_get_type, N_("Graph: %s"), "sl-graph-symbolic", graph_findings, FALSE, NULL,
    /* Translators: a button opening a run's computational graph */
    graph_runs, N_("Graph"), run_has_graph, .op_findings = op_graphs,
    .no_op_message = N_("No graph of this job is open: open the folder holding its summaries or .pb files") },
  /* The dataset graphs of a run's lineage, or of every run below a
   * folder side by side; opened from the folder page, not by default.
   * Translators: the title of a document tab; %s is a folder name. */
  { "dataset-graph", sl_dataset_graph_page_get_type, N_("Dataset Graph: %s"), "sl-graph-symbolic", NULL, FALSE, NULL,
    /* Translators: a button opening a run's dataset pipeline */
    mindspore_runs, N_("Dataset"), run_has_lineage, .keeps_path = TRUE,
    .add_folder_buttons = add_dataset_graph_buttons },
  /* Every run below a folder compared: parameters and results, parallel
   * coordinates, importance and the dataset pipelines; opened from the
   * folder page.
   * Translators: the title of a document tab; %s is a folder name. */
  { "lineage", sl_lineage_page_get_type, N_("Lineage: %s"), "sl-chart-symbolic", NULL, FALSE, NULL,
    .holds = holds_lineage, .keeps_path = TRUE, .add_folder_buttons = add_lineage_buttons },
  /* Two profiles compared; the address holds BASE, then COMPARISON,
   * opened from the folder page's Compare Profiles button or
   * `sightline --document compare BASE COMPARISON`.
   * Translators: the title of a document tab; %s is a folder name. */
  { "compare", sl_compare_page_get_type, N_("Comparison: %s"), "sl-chart-symbolic", NULL, FALSE, NULL,
    .aliases = compare_aliases, .n_paths = 2, .holds = is_profile, .add_folder_buttons = add_compare_buttons },
  /* Two tensor dumps compared pair by pair; the address holds NPU, then
   * BENCH, opened from the folder page's Compare Tensors button or
   * `sightline --compare-tensors`.
   * Translators: the title of a document tab; %s is a folder or file name. */
  { "tensor-compare", sl_tensor_compare_page_get_type, N_("Tensors: %s"), "sl-tensor-symbolic", NULL, FALSE, NULL,
    .n_paths = 2, .holds = holds_tensors, .keeps_path = TRUE, .add_folder_buttons = add_tensor_compare_buttons },
  /* A converted model's ops against its source model's; the address
   * holds the source model, then the converted one, opened
   * from the Convert dialog, the folder page or `sightline --document
   * conversion SOURCE OM`.
   * Translators: the title of a document tab; %s is a file name. */
  { "conversion", sl_conversion_page_get_type, N_("Conversion: %s"), "sl-graph-symbolic", NULL, FALSE, NULL,
    .n_paths = 2, .holds = is_graph, .keeps_path = TRUE, .add_folder_buttons = add_conversion_buttons },
  /* A hyperparameter study of a tuner configuration file (YAML), opened
   * from the file's finding; a path that does not exist yet opens an
   * empty form that writes it.
   * Translators: the title of a document tab; %s is a file name. */
  { "tuner", sl_tuner_page_get_type, N_("Tuner: %s"), "sl-chart-symbolic", tuner_findings, FALSE, NULL },
  /* Every rank of a cluster profile together.
   * Translators: the title of a document tab; %s is a folder name. */
  { "cluster", sl_cluster_page_get_type, N_("Cluster: %s"), "sl-timeline-symbolic", cluster_findings, FALSE, NULL },
};

/**
 * sl_document_registry_ensure_builtin:
 *
 * Registers Sightline's own views, once.
 */
void
sl_document_registry_ensure_builtin (void)
{
  static gsize done;

  if (g_once_init_enter (&done))
    {
      for (guint i = 0; i < G_N_ELEMENTS (builtin_kinds); i++)
        sl_document_registry_register (&builtin_kinds[i]);
      g_once_init_leave (&done, 1);
    }
}
