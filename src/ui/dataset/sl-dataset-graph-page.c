/* sl-dataset-graph-page.c
 *
 * The runs below the path are read by the summary reader on a worker,
 * which also decodes each run's last dataset graph, finds the nodes that
 * differ from the node at the same place in another run, and lays every
 * graph out. One canvas a run, in a row; selecting a node selects the
 * node at its place in every run, and Details lists its parameters with
 * the differing ones marked.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>

#include "sl-dataset-graph-page.h"
#include "sl-dataset-graph-reader.h"
#include "sl-dataset-graph-scene.h"
#include "sl-description.h"
#include "sl-summary-reader.h"

#define CANVAS_WIDTH 380

typedef struct {
  char           *name;
  SlDatasetGraph *graph;
  SlGraphScene   *scene;
  GtkWidget      *canvas;
} Run;

struct _SlDatasetGraphPage
{
  SlDocument     parent_instance;

  char          *path;
  GCancellable  *cancellable;
  GPtrArray     *runs;          /* Run */
  guint          selected_run;
  guint          selected_node;
  gboolean       syncing;

  GtkStack      *stack;
  AdwStatusPage *failed_page;
  GtkBox        *row;
};

G_DEFINE_FINAL_TYPE (SlDatasetGraphPage, sl_dataset_graph_page, SL_TYPE_DOCUMENT)

static void
run_free (gpointer data)
{
  Run *run = data;

  g_free (run->name);
  g_clear_object (&run->graph);
  g_clear_object (&run->scene);
  g_free (run);
}

/* What a read gives: the runs with a dataset graph, and what the summary
 * reader met in every run's files (SlProblem). */
typedef struct {
  GPtrArray *runs;
  GPtrArray *problems;
} Loaded;

static void
loaded_free (Loaded *loaded)
{
  g_clear_pointer (&loaded->runs, g_ptr_array_unref);
  g_clear_pointer (&loaded->problems, g_ptr_array_unref);
  g_free (loaded);
}

static void
load_thread (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  const char *path = task_data;
  g_autoptr(SlSummaryReader) reader = sl_summary_reader_new (path);
  g_autoptr(GPtrArray) runs = g_ptr_array_new_with_free_func (run_free);
  g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func (g_object_unref);
  g_autofree SlDatasetGraph **graphs = NULL;
  Loaded *loaded;
  g_autoptr(GError) error = NULL;
  GPtrArray *found;

  if (!sl_summary_reader_update (reader, cancellable, &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  found = sl_summary_reader_get_runs (reader);
  for (guint i = 0; i < found->len; i++)
    {
      SlSummaryRun *summary = g_ptr_array_index (found, i);
      GBytes *bytes = sl_summary_run_get_dataset_graph (summary);
      const char *lineage = sl_summary_run_get_path (summary);
      GPtrArray *read_problems = sl_summary_run_get_problems (summary);
      Run *run;

      /* A damaged record may be the one that held the graph: what the
       * reader met is kept for every run, with a graph or not. */
      for (guint p = 0; p < read_problems->len; p++)
        g_ptr_array_add (problems, g_object_ref (g_ptr_array_index (read_problems, p)));
      if (bytes == NULL)
        continue;
      for (guint f = 0; f < sl_summary_run_get_n_files (summary); f++)
        if (sl_summary_run_get_file (summary, f)->kind == SL_SUMMARY_FILE_LINEAGE)
          lineage = sl_summary_run_get_file (summary, f)->path;
      run = g_new0 (Run, 1);
      run->name = g_strcmp0 (sl_summary_run_get_name (summary), ".") == 0
                    ? g_path_get_basename (sl_summary_run_get_path (summary))
                    : g_strdup (sl_summary_run_get_name (summary));
      run->graph = sl_dataset_graph_reader_decode_bytes (lineage, bytes);
      g_ptr_array_add (runs, run);
    }

  graphs = g_new0 (SlDatasetGraph *, runs->len + 1);
  for (guint i = 0; i < runs->len; i++)
    graphs[i] = ((Run *)g_ptr_array_index (runs, i))->graph;

  for (guint i = 0; i < runs->len; i++)
    {
      Run *run = g_ptr_array_index (runs, i);
      g_autoptr(GArray) marked = g_array_new (FALSE, FALSE, sizeof (guint));

      for (guint n = 0; runs->len > 1 && n < sl_dataset_graph_get_n_nodes (run->graph); n++)
        {
          g_autoptr(GPtrArray) keys = sl_dataset_graph_dup_differences (run->graph, n, graphs, runs->len);

          if (keys->len > 0)
            g_array_append_val (marked, n);
        }
      if (!(run->scene = sl_dataset_graph_scene_build (run->graph, marked, cancellable, &error)))
        {
          g_task_return_error (task, g_steal_pointer (&error));
          return;
        }
    }

  loaded = g_new0 (Loaded, 1);
  loaded->runs = g_steal_pointer (&runs);
  loaded->problems = g_steal_pointer (&problems);
  g_task_return_pointer (task, loaded, (GDestroyNotify)loaded_free);
}

/* The node at the place of @node of @from in @to, or SL_DATASET_NO_NODE. */
static guint
same_place (SlDatasetGraph *from,
            guint           node,
            SlDatasetGraph *to)
{
  g_autofree char *path = sl_dataset_graph_dup_node_path (from, node);

  for (guint i = 0; i < sl_dataset_graph_get_n_nodes (to); i++)
    {
      g_autofree char *other = sl_dataset_graph_dup_node_path (to, i);

      if (g_str_equal (path, other))
        return i;
    }
  return SL_DATASET_NO_NODE;
}

static void
canvas_selected_cb (SlGraphCanvas      *canvas,
                    GParamSpec         *pspec,
                    SlDatasetGraphPage *self)
{
  guint run = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (canvas), "sl-run"));
  guint32 id = sl_graph_canvas_get_selected_id (canvas);

  if (self->syncing || id == SL_GRAPH_SCENE_NONE)
    return;
  sl_dataset_graph_page_select (self, run, id);
}

static GPtrArray *
dup_graphs (SlDatasetGraphPage *self)
{
  GPtrArray *graphs = g_ptr_array_new ();

  for (guint i = 0; i < self->runs->len; i++)
    g_ptr_array_add (graphs, ((Run *)g_ptr_array_index (self->runs, i))->graph);
  return graphs;
}

static char *
tooltip_cb (guint32  id,
            gpointer user_data)
{
  Run *run = user_data;
  const SlDatasetNode *node;
  GString *markup;

  if (id >= sl_dataset_graph_get_n_nodes (run->graph))
    return NULL;
  node = sl_dataset_graph_get_node (run->graph, id);
  markup = g_string_new (NULL);
  {
    g_autofree char *title = g_markup_printf_escaped ("<b>%s</b>", sl_dataset_node_get_label (node));
    g_string_append (markup, title);
  }
  for (guint p = 0; p < node->parameters->len; p++)
    {
      const SlDatasetParameter *parameter = g_ptr_array_index (node->parameters, p);
      g_autofree char *line = g_markup_printf_escaped ("\n%s: %s", parameter->key,
                                                       parameter->text != NULL ? parameter->text : "None");

      g_string_append (markup, line);
    }
  for (guint o = 0; o < node->operations->len; o++)
    {
      const SlDatasetOperation *operation = g_ptr_array_index (node->operations, o);
      g_autofree char *line = g_markup_printf_escaped ("\n→ %s", operation->name != NULL ? operation->name : "?");

      g_string_append (markup, line);
    }
  return g_string_free (markup, FALSE);
}

static void
fill_row (SlDatasetGraphPage *self)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->row))) != NULL)
    gtk_box_remove (self->row, child);

  for (guint i = 0; i < self->runs->len; i++)
    {
      Run *run = g_ptr_array_index (self->runs, i);
      GtkWidget *column = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
      GtkWidget *title = gtk_label_new (run->name);
      GtkWidget *frame = gtk_frame_new (NULL);

      gtk_widget_add_css_class (title, "heading");
      gtk_label_set_ellipsize (GTK_LABEL (title), PANGO_ELLIPSIZE_MIDDLE);
      run->canvas = sl_graph_canvas_new ();
      gtk_widget_set_size_request (run->canvas, CANVAS_WIDTH, -1);
      gtk_widget_set_vexpand (run->canvas, TRUE);
      g_object_set_data (G_OBJECT (run->canvas), "sl-run", GUINT_TO_POINTER (i));
      sl_graph_canvas_set_tooltip_func (SL_GRAPH_CANVAS (run->canvas), tooltip_cb, run, NULL);
      sl_graph_canvas_set_scene (SL_GRAPH_CANVAS (run->canvas), run->scene, SL_GRAPH_SCENE_NONE);
      g_signal_connect_object (run->canvas, "notify::selected-id", G_CALLBACK (canvas_selected_cb), self, 0);
      gtk_frame_set_child (GTK_FRAME (frame), run->canvas);
      gtk_widget_set_hexpand (column, self->runs->len == 1);
      gtk_box_append (GTK_BOX (column), title);
      gtk_box_append (GTK_BOX (column), frame);
      gtk_box_append (self->row, column);
    }
}

static void
load_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(SlDatasetGraphPage) self = user_data;
  g_autoptr(GError) error = NULL;
  Loaded *loaded = g_task_propagate_pointer (G_TASK (result), &error);
  GPtrArray *runs;

  panel_widget_unmark_busy (PANEL_WIDGET (self));
  if (loaded == NULL)
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        return;
      adw_status_page_set_description (self->failed_page, error->message);
      gtk_stack_set_visible_child_name (self->stack, "failed");
      sl_document_fail (SL_DOCUMENT (self), error->message);
      return;
    }

  g_clear_pointer (&self->runs, g_ptr_array_unref);
  self->runs = runs = g_steal_pointer (&loaded->runs);
  /* Damaged records skipped and cut files, each with its file and byte,
   * then what the dataset graphs' decoder met. */
  for (guint i = 0; i < loaded->problems->len; i++)
    sl_document_add_problem (SL_DOCUMENT (self), g_ptr_array_index (loaded->problems, i));
  loaded_free (loaded);
  for (guint i = 0; i < runs->len; i++)
    {
      GListModel *problems = sl_dataset_graph_get_problems (((Run *)g_ptr_array_index (runs, i))->graph);

      for (guint p = 0; p < g_list_model_get_n_items (problems); p++)
        {
          g_autoptr(SlProblem) problem = g_list_model_get_item (problems, p);
          sl_document_add_problem (SL_DOCUMENT (self), problem);
        }
    }
  if (runs->len == 0)
    {
      gtk_stack_set_visible_child_name (self->stack, "empty");
      sl_document_set_state (SL_DOCUMENT (self), SL_DOCUMENT_EMPTY);
      return;
    }
  fill_row (self);
  gtk_stack_set_visible_child_name (self->stack, "graphs");
  sl_document_set_state (SL_DOCUMENT (self), SL_DOCUMENT_READY);
}

static gboolean
sl_dataset_graph_page_show_details (SlDocument     *document,
                                    SlDescription  *details)
{
  SlDatasetGraphPage *self = SL_DATASET_GRAPH_PAGE (document);
  g_autoptr(GPtrArray) graphs = NULL;
  g_autoptr(GPtrArray) differs = NULL;
  g_autofree char *place = NULL;
  const SlDatasetNode *node;
  Run *run;

  if (self->runs == NULL || self->selected_run >= self->runs->len)
    return FALSE;
  run = g_ptr_array_index (self->runs, self->selected_run);
  if (self->selected_node >= sl_dataset_graph_get_n_nodes (run->graph))
    return FALSE;
  node = sl_dataset_graph_get_node (run->graph, self->selected_node);
  graphs = dup_graphs (self);
  differs = sl_dataset_graph_dup_differences (run->graph, self->selected_node,
                                              (SlDatasetGraph **)graphs->pdata, graphs->len);
  place = sl_dataset_graph_dup_node_path (run->graph, self->selected_node);

  {
    const char *rows[] = {
      _("Run"), run->name,
      _("Kind"), node->kind == SL_DATASET_NODE_SAMPLER ? _("Sampler") : _("Dataset operation"),
      _("Module"), node->module,
      _("Place"), place,
      NULL
    };
    sl_description_show_rows (details, NULL, "sl-graph-symbolic", sl_dataset_node_get_label (node), rows);
  }

  for (guint p = 0; p < node->parameters->len; p++)
    {
      const SlDatasetParameter *parameter = g_ptr_array_index (node->parameters, p);
      gboolean differ = g_ptr_array_find_with_equal_func (differs, parameter->key, g_str_equal, NULL);
      /* Translators: a parameter whose value differs between runs */
      g_autofree char *key = differ ? g_strdup_printf (_("%s (differs)"), parameter->key) : g_strdup (parameter->key);
      const char *rows[] = { key, parameter->text != NULL ? parameter->text : _("None"), NULL };

      sl_description_add_rows (details, rows);
    }
  for (guint o = 0; o < node->operations->len; o++)
    {
      const SlDatasetOperation *operation = g_ptr_array_index (node->operations, o);
      g_autoptr(GString) text = g_string_new (NULL);
      g_autofree char *key = g_strdup_printf (_("Operation %u"), o + 1);

      g_string_append (text, operation->name != NULL ? operation->name : "?");
      for (guint p = 0; p < operation->parameters->len; p++)
        {
          const SlDatasetParameter *parameter = g_ptr_array_index (operation->parameters, p);

          if (g_str_equal (parameter->key, "tensor_op_name"))
            continue;
          g_string_append_printf (text, "\n%s = %s", parameter->key, parameter->text != NULL ? parameter->text : "None");
        }
      {
        const char *rows[] = { key, text->str, NULL };
        sl_description_add_rows (details, rows);
      }
    }
  return TRUE;
}

static void
sl_dataset_graph_page_load (SlDocument *document)
{
  SlDatasetGraphPage *self = SL_DATASET_GRAPH_PAGE (document);
  g_autoptr(GTask) task = NULL;

  if (self->path != NULL || sl_document_get_path (document) == NULL)
    return;
  self->path = g_strdup (sl_document_get_path (document));
  panel_widget_mark_busy (PANEL_WIDGET (self));
  task = g_task_new (NULL, self->cancellable, load_cb, g_object_ref (self));
  g_task_set_task_data (task, g_strdup (self->path), g_free);
  g_task_run_in_thread (task, load_thread);
}

static void
fit_action (GtkWidget  *widget,
            const char *action_name,
            GVariant   *param)
{
  SlDatasetGraphPage *self = SL_DATASET_GRAPH_PAGE (widget);

  for (guint i = 0; self->runs != NULL && i < self->runs->len; i++)
    sl_graph_canvas_fit (SL_GRAPH_CANVAS (((Run *)g_ptr_array_index (self->runs, i))->canvas));
}

static void
sl_dataset_graph_page_dispose (GObject *object)
{
  SlDatasetGraphPage *self = SL_DATASET_GRAPH_PAGE (object);

  g_cancellable_cancel (self->cancellable);
  /* The template's child is the panel's: hand it back before the
   * template lets go of it, or PanelWidget unparents it a second time. */
  panel_widget_set_child (PANEL_WIDGET (self), NULL);
  gtk_widget_dispose_template (GTK_WIDGET (self), SL_TYPE_DATASET_GRAPH_PAGE);
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->runs, g_ptr_array_unref);
  g_clear_pointer (&self->path, g_free);

  G_OBJECT_CLASS (sl_dataset_graph_page_parent_class)->dispose (object);
}

static void
sl_dataset_graph_page_class_init (SlDatasetGraphPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = sl_dataset_graph_page_dispose;
  SL_DOCUMENT_CLASS (klass)->load = sl_dataset_graph_page_load;
  SL_DOCUMENT_CLASS (klass)->describe = sl_dataset_graph_page_show_details;

  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_PREFIX "/ui/sl-dataset-graph-page.ui");
  gtk_widget_class_bind_template_child (widget_class, SlDatasetGraphPage, stack);
  gtk_widget_class_bind_template_child (widget_class, SlDatasetGraphPage, failed_page);
  gtk_widget_class_bind_template_child (widget_class, SlDatasetGraphPage, row);
  gtk_widget_class_install_action (widget_class, "dataset.fit", NULL, fit_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_0, GDK_CONTROL_MASK, "dataset.fit", NULL);
  g_type_ensure (SL_TYPE_GRAPH_CANVAS);
}

static void
sl_dataset_graph_page_init (SlDatasetGraphPage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  self->cancellable = g_cancellable_new ();
  self->selected_run = G_MAXUINT;
  self->selected_node = SL_DATASET_NO_NODE;
}

guint
sl_dataset_graph_page_get_n_runs (SlDatasetGraphPage *self)
{
  g_return_val_if_fail (SL_IS_DATASET_GRAPH_PAGE (self), 0);
  return self->runs != NULL ? self->runs->len : 0;
}

SlDatasetGraph *
sl_dataset_graph_page_get_graph (SlDatasetGraphPage *self,
                                 guint               run)
{
  g_return_val_if_fail (SL_IS_DATASET_GRAPH_PAGE (self), NULL);
  g_return_val_if_fail (run < sl_dataset_graph_page_get_n_runs (self), NULL);
  return ((Run *)g_ptr_array_index (self->runs, run))->graph;
}

SlGraphCanvas *
sl_dataset_graph_page_get_canvas (SlDatasetGraphPage *self,
                                  guint               run)
{
  g_return_val_if_fail (SL_IS_DATASET_GRAPH_PAGE (self), NULL);
  g_return_val_if_fail (run < sl_dataset_graph_page_get_n_runs (self), NULL);
  return SL_GRAPH_CANVAS (((Run *)g_ptr_array_index (self->runs, run))->canvas);
}

void
sl_dataset_graph_page_select (SlDatasetGraphPage *self,
                              guint               run,
                              guint               node)
{
  Run *from;

  g_return_if_fail (SL_IS_DATASET_GRAPH_PAGE (self));

  if (run >= sl_dataset_graph_page_get_n_runs (self))
    return;
  from = g_ptr_array_index (self->runs, run);
  if (node >= sl_dataset_graph_get_n_nodes (from->graph))
    return;

  self->selected_run = run;
  self->selected_node = node;
  self->syncing = TRUE;
  for (guint i = 0; i < self->runs->len; i++)
    {
      Run *other = g_ptr_array_index (self->runs, i);
      guint match = i == run ? node : same_place (from->graph, node, other->graph);

      sl_graph_canvas_set_selected_id (SL_GRAPH_CANVAS (other->canvas),
                                       match == SL_DATASET_NO_NODE ? SL_GRAPH_SCENE_NONE : match);
    }
  self->syncing = FALSE;
  sl_document_details_changed (SL_DOCUMENT (self));
}
