/* sl-pipeline-page.c
 *
 * Reading, checking and laying out happen in one worker step (analyse)
 * on the file's bytes; an edit runs the editor and then the same step on
 * the new bytes, and a save writes them and checks again, so what is on
 * screen is always the check of what would be written. A generation
 * counter drops the result of a step that a newer one overtook.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <adwaita.h>
#include <glib/gi18n.h>

#include "sl-count-format.h"
#include "sl-description.h"
#include "sl-pipeline-check.h"
#include "sl-pipeline-editor.h"
#include "sl-pipeline-page.h"
#include "sl-pipeline-reader.h"
#include "sl-pipeline-scene.h"

struct _SlPipelinePage
{
  SlDocument     parent_instance;

  char          *path;
  GCancellable  *cancellable;
  SlPipeline    *pipeline;
  GPtrArray     *problems;       /* SlProblem of the check */
  GPtrArray     *scenes;         /* SlGraphScene, one a stream */
  char          *etag;           /* of the file as last read or saved */
  char          *title;          /* without the unsaved mark */
  GFileMonitor  *monitor;
  guint          generation;
  guint          stream;
  guint32        selected;
  gboolean       modified;
  gboolean       saving;

  GtkStack      *stack;
  AdwStatusPage *failed_page;
  GtkDropDown   *stream_dropdown;
  GtkLabel      *status_label;
  SlGraphCanvas *canvas;
};

G_DEFINE_FINAL_TYPE (SlPipelinePage, sl_pipeline_page, SL_TYPE_DOCUMENT)

enum {
  PROP_0,
  PROP_MODIFIED,
  N_PROPS
};

enum {
  REFRESHED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

/* ------------------------------------------------------------------ */
/* The worker step */

typedef struct {
  char         *path;
  GBytes       *bytes;          /* to read; NULL to load the file */
  SlPipeline   *edit_from;      /* an edit: the pipeline it applies to */
  guint         stream;
  guint         element;
  char         *key;
  char         *value;
  gboolean      save;
  char         *etag;
} Job;

typedef struct {
  SlPipeline *pipeline;
  GPtrArray  *problems;
  GPtrArray  *scenes;
  char       *etag;
  gboolean    from_disk;        /* read or saved: the file holds it */
} Result;

static void
job_free (gpointer data)
{
  Job *job = data;

  g_free (job->path);
  g_clear_pointer (&job->bytes, g_bytes_unref);
  g_clear_object (&job->edit_from);
  g_free (job->key);
  g_free (job->value);
  g_free (job->etag);
  g_free (job);
}

static void
result_free (gpointer data)
{
  Result *result = data;

  g_clear_object (&result->pipeline);
  g_clear_pointer (&result->problems, g_ptr_array_unref);
  g_clear_pointer (&result->scenes, g_ptr_array_unref);
  g_free (result->etag);
  g_free (result);
}

static void
analyse_thread (GTask        *task,
                gpointer      source_object,
                gpointer      task_data,
                GCancellable *cancellable)
{
  Job *job = task_data;
  g_autoptr(GFile) file = g_file_new_for_path (job->path);
  g_autoptr(GHashTable) plugins = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *etag = NULL;
  Result *result;
  gsize length;
  const guint8 *data;

  if (job->edit_from != NULL)
    {
      if (!(bytes = sl_pipeline_editor_set_prop (job->edit_from, job->stream, job->element, job->key, job->value,
                                                 &error)))
        {
          g_task_return_error (task, g_steal_pointer (&error));
          return;
        }
    }
  else if (job->bytes != NULL)
    bytes = g_bytes_ref (job->bytes);
  else
    {
      char *contents = NULL;

      if (!g_file_load_contents (file, cancellable, &contents, &length, &etag, &error))
        {
          g_task_return_error (task, g_steal_pointer (&error));
          return;
        }
      if (length > SL_PIPELINE_READER_MAX_SIZE)
        {
          g_free (contents);
          g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                                   _("This file is too large to be a pipeline"));
          return;
        }
      bytes = g_bytes_new_take (contents, length);
    }

  if (job->save)
    {
      if (!sl_pipeline_editor_save (file, bytes, job->etag, &etag, cancellable, &error))
        {
          g_task_return_error (task, g_steal_pointer (&error));
          return;
        }
    }

  result = g_new0 (Result, 1);
  result->from_disk = etag != NULL;
  result->etag = g_steal_pointer (&etag);
  data = g_bytes_get_data (bytes, &length);
  result->pipeline = sl_pipeline_reader_read_data (job->path, data, length);
  if (!(plugins = sl_pipeline_check_load_user_plugins (NULL)))
    plugins = g_hash_table_new (g_str_hash, g_str_equal);
  result->problems = sl_pipeline_check (result->pipeline, NULL, plugins);
  result->scenes = g_ptr_array_new_with_free_func (g_object_unref);
  for (guint s = 0; s < sl_pipeline_get_n_streams (result->pipeline); s++)
    {
      SlGraphScene *scene = sl_pipeline_scene_build (sl_pipeline_get_stream (result->pipeline, s),
                                                     result->problems, cancellable, &error);

      if (scene == NULL)
        {
          result_free (result);
          g_task_return_error (task, g_steal_pointer (&error));
          return;
        }
      g_ptr_array_add (result->scenes, scene);
    }
  g_task_return_pointer (task, result, result_free);
}

/* ------------------------------------------------------------------ */

static void
update_title (SlPipelinePage *self)
{
  g_autofree char *title = NULL;

  if (self->title == NULL)
    self->title = g_strdup (panel_widget_get_title (PANEL_WIDGET (self)));
  /* Translators: the tab title of a pipeline with unsaved edits */
  title = self->modified ? g_strdup_printf (_("%s (unsaved)"), self->title) : g_strdup (self->title);
  panel_widget_set_title (PANEL_WIDGET (self), title);
  panel_widget_set_modified (PANEL_WIDGET (self), self->modified);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "pipeline.save", self->modified && !self->saving);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "pipeline.revert", self->modified && !self->saving);
}

static void
set_modified (SlPipelinePage *self,
              gboolean        modified)
{
  if (self->modified == modified)
    return;
  self->modified = modified;
  update_title (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MODIFIED]);
}

static const SlPipelineStream *
current_stream (SlPipelinePage *self)
{
  if (self->pipeline == NULL || self->stream >= sl_pipeline_get_n_streams (self->pipeline))
    return NULL;
  return sl_pipeline_get_stream (self->pipeline, self->stream);
}

static void
update_status (SlPipelinePage *self)
{
  guint errors = 0, warnings = 0;
  g_autofree char *errors_count = NULL;
  g_autofree char *warnings_count = NULL;
  g_autofree char *errors_text = NULL;
  g_autofree char *warnings_text = NULL;
  g_autofree char *text = NULL;

  for (guint i = 0; self->problems != NULL && i < self->problems->len; i++)
    {
      SlSeverity severity = sl_problem_get_severity (g_ptr_array_index (self->problems, i));

      errors += severity == SL_SEVERITY_ERROR;
      warnings += severity == SL_SEVERITY_WARNING;
    }
  if (errors == 0 && warnings == 0)
    {
      gtk_label_set_label (self->status_label, _("The SDK would accept this pipeline"));
      return;
    }
  errors_count = sl_count_format (errors);
  warnings_count = sl_count_format (warnings);
  errors_text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s error", "%s errors", errors), errors_count);
  warnings_text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s warning", "%s warnings", warnings),
                                   warnings_count);
  /* Translators: "3 errors, 1 warning" */
  text = g_strdup_printf (_("%s, %s"), errors_text, warnings_text);
  gtk_label_set_label (self->status_label, text);
}

const char *
sl_pipeline_page_get_status (SlPipelinePage *self)
{
  g_return_val_if_fail (SL_IS_PIPELINE_PAGE (self), NULL);

  return gtk_label_get_label (self->status_label);
}

static void
show_stream (SlPipelinePage *self,
             guint32         anchor)
{
  SlGraphScene *scene;

  if (self->scenes == NULL || self->stream >= self->scenes->len)
    return;
  scene = g_ptr_array_index (self->scenes, self->stream);
  sl_graph_canvas_set_scene (self->canvas, scene, anchor);
  sl_graph_canvas_set_selected_id (self->canvas, self->selected);
}

static void stream_changed_cb (SlPipelinePage *self);

static void
apply_result (SlPipelinePage *self,
              Result         *result)
{
  g_autoptr(GtkStringList) names = gtk_string_list_new (NULL);
  const SlPipelineStream *old_stream = current_stream (self);
  g_autofree char *old_stream_name = old_stream != NULL ? g_strdup (old_stream->name) : NULL;
  guint n_streams;

  g_set_object (&self->pipeline, result->pipeline);
  g_clear_pointer (&self->problems, g_ptr_array_unref);
  self->problems = g_ptr_array_ref (result->problems);
  g_clear_pointer (&self->scenes, g_ptr_array_unref);
  self->scenes = g_ptr_array_ref (result->scenes);
  if (result->etag != NULL)
    {
      g_free (self->etag);
      self->etag = g_strdup (result->etag);
    }

  /* The same stream stays shown after an edit or a reload. */
  n_streams = sl_pipeline_get_n_streams (self->pipeline);
  self->stream = 0;
  for (guint s = 0; s < n_streams; s++)
    {
      const SlPipelineStream *stream = sl_pipeline_get_stream (self->pipeline, s);

      gtk_string_list_append (names, stream->name);
      if (g_strcmp0 (stream->name, old_stream_name) == 0)
        self->stream = s;
    }
  {
    const SlPipelineStream *shown = current_stream (self);

    if (shown == NULL || self->selected >= shown->elements->len)
      self->selected = SL_GRAPH_SCENE_NONE;
  }

  g_signal_handlers_block_by_func (self->stream_dropdown, stream_changed_cb, self);
  gtk_drop_down_set_model (self->stream_dropdown, G_LIST_MODEL (names));
  gtk_drop_down_set_selected (self->stream_dropdown, self->stream);
  g_signal_handlers_unblock_by_func (self->stream_dropdown, stream_changed_cb, self);
  gtk_widget_set_visible (GTK_WIDGET (self->stream_dropdown), n_streams > 1);

  sl_document_clear_problems (SL_DOCUMENT (self));
  for (guint i = 0; i < self->problems->len; i++)
    sl_document_add_problem (SL_DOCUMENT (self), g_ptr_array_index (self->problems, i));
  update_status (self);

  gtk_stack_set_visible_child_name (self->stack, n_streams > 0 ? "pipeline" : "empty");
  show_stream (self, self->selected);
  sl_document_set_state (SL_DOCUMENT (self), n_streams > 0 ? SL_DOCUMENT_READY : SL_DOCUMENT_EMPTY);
  sl_document_details_changed (SL_DOCUMENT (self));
  g_signal_emit (self, signals[REFRESHED], 0);
}

typedef struct {
  SlPipelinePage *self;
  guint           generation;
  gboolean        edit;
  gboolean        save;
} Pending;

static void
analyse_cb (GObject      *object,
            GAsyncResult *async_result,
            gpointer      user_data)
{
  g_autofree Pending *pending = user_data;
  g_autoptr(SlPipelinePage) self = pending->self;
  g_autoptr(GError) error = NULL;
  Result *result = g_task_propagate_pointer (G_TASK (async_result), &error);

  if (pending->save)
    self->saving = FALSE;
  panel_widget_unmark_busy (PANEL_WIDGET (self));

  if (pending->generation != self->generation)
    {
      g_clear_pointer (&result, result_free);
      update_title (self);
      return;
    }

  if (result == NULL)
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        return;
      if (self->pipeline != NULL)
        {
          /* An edit or a save that failed: what is shown stays. */
          gtk_widget_activate_action (GTK_WIDGET (self), "win.toast", "s", error->message);
          update_title (self);
          return;
        }
      adw_status_page_set_description (self->failed_page, error->message);
      gtk_stack_set_visible_child_name (self->stack, "failed");
      sl_document_fail (SL_DOCUMENT (self), error->message);
      return;
    }

  apply_result (self, result);
  if (pending->edit)
    set_modified (self, TRUE);
  else if (result->from_disk)
    set_modified (self, FALSE);
  if (pending->save)
    {
      g_autoptr(GFile) file = g_file_new_for_path (self->path);
      g_autoptr(GFile) backup = sl_pipeline_editor_dup_backup (file);
      g_autofree char *name = g_file_get_basename (backup);
      /* Translators: %s is the backup's file name */
      g_autofree char *message = g_strdup_printf (_("Saved; the previous file is kept as %s"), name);

      gtk_widget_activate_action (GTK_WIDGET (self), "win.toast", "s", message);
    }
  update_title (self);
  result_free (result);
}

static void
run_job (SlPipelinePage *self,
         Job            *job,
         gboolean        edit)
{
  Pending *pending = g_new0 (Pending, 1);
  GTask *task;

  pending->self = g_object_ref (self);
  pending->generation = ++self->generation;
  pending->edit = edit;
  pending->save = job->save;
  if (job->save)
    self->saving = TRUE;
  update_title (self);

  job->path = g_strdup (self->path);
  task = g_task_new (NULL, self->cancellable, analyse_cb, pending);
  g_task_set_source_tag (task, run_job);
  g_task_set_task_data (task, job, job_free);
  panel_widget_mark_busy (PANEL_WIDGET (self));
  g_task_run_in_thread (task, analyse_thread);
  g_object_unref (task);
}

static void
reload (SlPipelinePage *self)
{
  run_job (self, g_new0 (Job, 1), FALSE);
}

/* ------------------------------------------------------------------ */
/* Details */

static void
element_link_cb (GObject *object,
                 guint64  element)
{
  SlPipelinePage *self = SL_PIPELINE_PAGE (object);

  sl_pipeline_page_select_element (self, (guint) element);
  sl_graph_canvas_reveal_id (self->canvas, (guint) element);
}

static void
prop_edited_cb (GObject    *object,
                const char *key,
                const char *text)
{
  sl_pipeline_page_set_prop (SL_PIPELINE_PAGE (object), key, text);
}

/* "name=value" in the entry for a new prop. */
static void
new_prop_edited_cb (GObject    *object,
                    const char *key,
                    const char *text)
{
  SlPipelinePage *self = SL_PIPELINE_PAGE (object);
  const char *equals = strchr (text, '=');
  g_autofree char *name = NULL;

  if (equals == NULL || equals == text)
    {
      gtk_widget_activate_action (GTK_WIDGET (self), "win.toast", "s",
                                  _("Write the new property as name=value"));
      return;
    }
  name = g_strstrip (g_strndup (text, equals - text));
  sl_pipeline_page_set_prop (self, name, equals + 1);
}

static gboolean
sl_pipeline_page_show_details (SlDocument     *document,
                               SlDescription  *details)
{
  SlPipelinePage *self = SL_PIPELINE_PAGE (document);
  const SlPipelineStream *stream = current_stream (self);
  const SlPipelineElement *element;
  g_autofree char *position = NULL;

  if (stream == NULL || self->selected >= stream->elements->len)
    return FALSE;
  element = g_ptr_array_index (stream->elements, self->selected);
  /* Translators: where an element is in its file */
  position = g_strdup_printf (_("line %u, column %u"), element->key_span.line, element->key_span.column);

  {
    const char *factory = sl_pipeline_element_get_factory (element);
    const char *rows[] = {
      _("Stream"), stream->name,
      _("Factory"), factory != NULL ? factory : _("(none)"),
      _("Position"), position,
      NULL
    };

    sl_description_show_rows (details, NULL, "sl-graph-symbolic", element->name, rows);
  }

  for (guint i = 0; i < element->links->len; i++)
    {
      const SlPipelineLink *link = g_ptr_array_index (element->links, i);
      const char *label = link->kind == SL_PIPELINE_LINK_NEXT ? _("Next") : _("Next (metadata)");

      if (link->target == NULL)
        continue;
      if (link->to == SL_PIPELINE_NO_ELEMENT)
        {
          const char *rows[] = { label, link->target, NULL };
          sl_description_add_rows (details, rows);
          continue;
        }
      sl_description_add_object_link (details, label, link->target, G_OBJECT (self), element_link_cb, link->to);
    }

  for (guint i = 0; i < element->props->len; i++)
    {
      const SlPipelineMember *prop = g_ptr_array_index (element->props, i);

      /* Translators: tooltip of a property's value in Details */
      sl_description_add_edit_row (details, prop->key, prop->text, NULL,
                                   _("Press Enter to change the value; Ctrl+S saves the file"),
                                   G_OBJECT (self), prop_edited_cb);
    }
  /* Translators: placeholder of the entry that adds a property */
  sl_description_add_edit_row (details, _("New property"), NULL, _("name=value"), NULL,
                               G_OBJECT (self), new_prop_edited_cb);

  for (guint i = 0; self->problems != NULL && i < self->problems->len; i++)
    {
      SlProblem *problem = g_ptr_array_index (self->problems, i);
      g_autofree char *key = NULL;

      if (!sl_pipeline_scene_problem_is_about (stream, self->selected, problem))
        continue;
      /* Translators: "Error, line 4:12" */
      key = g_strdup_printf (_("%s, line %u:%u"),
                             sl_problem_get_severity (problem) == SL_SEVERITY_ERROR ? _("Error") : _("Warning"),
                             sl_problem_get_line (problem), sl_problem_get_column (problem));
      {
        const char *rows[] = { key, sl_problem_get_message (problem), NULL };
        sl_description_add_rows (details, rows);
      }
    }
  return TRUE;
}

/* ------------------------------------------------------------------ */

static void
stream_changed_cb (SlPipelinePage *self)
{
  guint selected = gtk_drop_down_get_selected (self->stream_dropdown);

  if (selected == GTK_INVALID_LIST_POSITION || selected == self->stream)
    return;
  sl_pipeline_page_set_stream (self, selected);
}

static void
selected_id_changed_cb (SlPipelinePage *self)
{
  guint32 id = sl_graph_canvas_get_selected_id (self->canvas);

  if (id == self->selected)
    return;
  self->selected = id;
  sl_document_details_changed (SL_DOCUMENT (self));
}

static char *
tooltip_cb (guint32  id,
            gpointer user_data)
{
  SlPipelinePage *self = user_data;
  const SlPipelineStream *stream = current_stream (self);
  const SlPipelineElement *element;
  const char *factory;
  GString *markup;
  guint n_problems = 0;

  if (stream == NULL || id >= stream->elements->len)
    return NULL;
  element = g_ptr_array_index (stream->elements, id);
  factory = sl_pipeline_element_get_factory (element);
  markup = g_string_new (NULL);
  {
    g_autofree char *name = g_markup_escape_text (element->name, -1);
    g_string_append_printf (markup, "<b>%s</b>", name);
  }
  if (factory != NULL)
    {
      g_autofree char *escaped = g_markup_escape_text (factory, -1);
      g_string_append_printf (markup, "\n%s", escaped);
    }
  for (guint i = 0; i < element->props->len; i++)
    {
      const SlPipelineMember *prop = g_ptr_array_index (element->props, i);
      g_autofree char *escaped = g_markup_printf_escaped ("\n%s: %s", prop->key, prop->text);

      g_string_append (markup, escaped);
    }
  for (guint i = 0; self->problems != NULL && i < self->problems->len; i++)
    n_problems += sl_pipeline_scene_problem_is_about (stream, id, g_ptr_array_index (self->problems, i));
  if (n_problems > 0)
    g_string_append_printf (markup, "\n<i>%s</i>",
                            g_dngettext (GETTEXT_PACKAGE, "One problem: see Details", "Problems: see Details",
                                         n_problems));
  return g_string_free (markup, FALSE);
}

static void
file_changed_cb (SlPipelinePage    *self,
                 GFile             *file,
                 GFile             *other,
                 GFileMonitorEvent  event)
{
  if (event != G_FILE_MONITOR_EVENT_CHANGES_DONE_HINT && event != G_FILE_MONITOR_EVENT_CREATED)
    return;
  if (self->saving)
    return;
  if (self->modified)
    {
      gtk_widget_activate_action (GTK_WIDGET (self), "win.toast", "s",
                                  _("The pipeline changed on disk; saving will not overwrite it"));
      return;
    }
  reload (self);
}

static void
save_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *param)
{
  sl_pipeline_page_save (SL_PIPELINE_PAGE (widget));
}

static void
revert_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *param)
{
  SlPipelinePage *self = SL_PIPELINE_PAGE (widget);

  self->modified = FALSE;
  reload (self);
  update_title (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MODIFIED]);
}

static void
fit_action (GtkWidget  *widget,
            const char *action_name,
            GVariant   *param)
{
  sl_graph_canvas_fit (SL_PIPELINE_PAGE (widget)->canvas);
}

static void
sl_pipeline_page_load (SlDocument *document)
{
  SlPipelinePage *self = SL_PIPELINE_PAGE (document);
  g_autoptr(GFile) file = NULL;

  if (self->path != NULL || sl_document_get_path (document) == NULL)
    return;
  self->path = g_strdup (sl_document_get_path (document));
  update_title (self);

  file = g_file_new_for_path (self->path);
  self->monitor = g_file_monitor_file (file, G_FILE_MONITOR_NONE, self->cancellable, NULL);
  if (self->monitor != NULL)
    g_signal_connect_object (self->monitor, "changed", G_CALLBACK (file_changed_cb), self, G_CONNECT_SWAPPED);
  reload (self);
}

static void
sl_pipeline_page_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  SlPipelinePage *self = SL_PIPELINE_PAGE (object);

  switch (prop_id)
    {
    case PROP_MODIFIED:
      g_value_set_boolean (value, self->modified);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sl_pipeline_page_dispose (GObject *object)
{
  SlPipelinePage *self = SL_PIPELINE_PAGE (object);

  g_cancellable_cancel (self->cancellable);
  if (self->monitor != NULL)
    g_file_monitor_cancel (self->monitor);
  /* The template's child is the panel's: hand it back before the
   * template lets go of it, or PanelWidget unparents it a second time. */
  panel_widget_set_child (PANEL_WIDGET (self), NULL);
  gtk_widget_dispose_template (GTK_WIDGET (self), SL_TYPE_PIPELINE_PAGE);
  g_clear_object (&self->monitor);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->pipeline);
  g_clear_pointer (&self->problems, g_ptr_array_unref);
  g_clear_pointer (&self->scenes, g_ptr_array_unref);
  g_clear_pointer (&self->etag, g_free);
  g_clear_pointer (&self->title, g_free);
  g_clear_pointer (&self->path, g_free);

  G_OBJECT_CLASS (sl_pipeline_page_parent_class)->dispose (object);
}

static void
sl_pipeline_page_class_init (SlPipelinePageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  SlDocumentClass *document_class = SL_DOCUMENT_CLASS (klass);

  object_class->dispose = sl_pipeline_page_dispose;
  object_class->get_property = sl_pipeline_page_get_property;
  document_class->load = sl_pipeline_page_load;
  document_class->describe = sl_pipeline_page_show_details;

  properties[PROP_MODIFIED] =
    g_param_spec_boolean ("unsaved", NULL, NULL, FALSE, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * SlPipelinePage::refreshed:
   *
   * What is shown was read, edited or saved and checked again.
   */
  signals[REFRESHED] =
    g_signal_new ("refreshed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);

  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_PREFIX "/ui/sl-pipeline-page.ui");
  gtk_widget_class_bind_template_child (widget_class, SlPipelinePage, stack);
  gtk_widget_class_bind_template_child (widget_class, SlPipelinePage, failed_page);
  gtk_widget_class_bind_template_child (widget_class, SlPipelinePage, stream_dropdown);
  gtk_widget_class_bind_template_child (widget_class, SlPipelinePage, status_label);
  gtk_widget_class_bind_template_child (widget_class, SlPipelinePage, canvas);
  gtk_widget_class_bind_template_callback (widget_class, stream_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, selected_id_changed_cb);

  gtk_widget_class_install_action (widget_class, "pipeline.save", NULL, save_action);
  gtk_widget_class_install_action (widget_class, "pipeline.revert", NULL, revert_action);
  gtk_widget_class_install_action (widget_class, "pipeline.fit", NULL, fit_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_s, GDK_CONTROL_MASK, "pipeline.save", NULL);

  g_type_ensure (SL_TYPE_GRAPH_CANVAS);
}

static void
sl_pipeline_page_init (SlPipelinePage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  self->cancellable = g_cancellable_new ();
  self->selected = SL_GRAPH_SCENE_NONE;
  sl_graph_canvas_set_tooltip_func (self->canvas, tooltip_cb, self, NULL);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "pipeline.save", FALSE);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "pipeline.revert", FALSE);
}

SlPipeline *
sl_pipeline_page_get_pipeline (SlPipelinePage *self)
{
  g_return_val_if_fail (SL_IS_PIPELINE_PAGE (self), NULL);
  return self->pipeline;
}

SlGraphCanvas *
sl_pipeline_page_get_canvas (SlPipelinePage *self)
{
  g_return_val_if_fail (SL_IS_PIPELINE_PAGE (self), NULL);
  return self->canvas;
}

guint
sl_pipeline_page_get_stream (SlPipelinePage *self)
{
  g_return_val_if_fail (SL_IS_PIPELINE_PAGE (self), 0);
  return self->stream;
}

void
sl_pipeline_page_set_stream (SlPipelinePage *self,
                             guint           stream)
{
  g_return_if_fail (SL_IS_PIPELINE_PAGE (self));

  if (self->pipeline == NULL || stream >= sl_pipeline_get_n_streams (self->pipeline))
    return;
  self->stream = stream;
  self->selected = SL_GRAPH_SCENE_NONE;
  gtk_drop_down_set_selected (self->stream_dropdown, stream);
  show_stream (self, SL_GRAPH_SCENE_NONE);
  sl_graph_canvas_fit (self->canvas);
  sl_document_details_changed (SL_DOCUMENT (self));
}

void
sl_pipeline_page_select_element (SlPipelinePage *self,
                                 guint           element)
{
  g_return_if_fail (SL_IS_PIPELINE_PAGE (self));

  sl_graph_canvas_set_selected_id (self->canvas, element);
  /* The notify handler does it too, unless the canvas had it selected. */
  if (self->selected != element)
    {
      self->selected = element;
      sl_document_details_changed (SL_DOCUMENT (self));
    }
}

void
sl_pipeline_page_set_prop (SlPipelinePage *self,
                           const char     *key,
                           const char     *value)
{
  const SlPipelineStream *stream;
  Job *job;

  g_return_if_fail (SL_IS_PIPELINE_PAGE (self));
  g_return_if_fail (key != NULL && value != NULL);

  stream = current_stream (self);
  if (stream == NULL || self->selected >= stream->elements->len)
    return;

  job = g_new0 (Job, 1);
  job->edit_from = g_object_ref (self->pipeline);
  job->stream = self->stream;
  job->element = self->selected;
  job->key = g_strdup (key);
  job->value = g_strdup (value);
  run_job (self, job, TRUE);
}

gboolean
sl_pipeline_page_get_modified (SlPipelinePage *self)
{
  g_return_val_if_fail (SL_IS_PIPELINE_PAGE (self), FALSE);
  return self->modified;
}

void
sl_pipeline_page_save (SlPipelinePage *self)
{
  Job *job;

  g_return_if_fail (SL_IS_PIPELINE_PAGE (self));

  if (!self->modified || self->saving || self->pipeline == NULL)
    return;
  job = g_new0 (Job, 1);
  job->bytes = g_bytes_ref (sl_pipeline_get_contents (self->pipeline));
  job->save = TRUE;
  job->etag = g_strdup (self->etag);
  run_job (self, job, FALSE);
}
