/* sl-step-timeline-export.c
 *
 * The worker reads the timeline when there is none yet, then writes the
 * step through sl_step_export_write; the bar polls the worker's counters
 * as the Timeline document does. The timeline read is kept for the next
 * step, so only the first export of a profile waits for it.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "sl-count-format.h"
#include "sl-step-export.h"
#include "sl-progress.h"
#include "sl-step-timeline-export.h"
#include "sl-trace-loader.h"

/* Shared between the bar and its worker */
typedef struct {
  gint         ref_count;
  char        *path;
  SlTrace     *trace;         /* given, or read by the worker */
  SlStepTrace *steps;
  guint        index;
  GFile       *file;
  SlProgress  *progress;      /* bytes read, told on the main context */
  gint         writing;       /* atomic */
  guint64      n_events;
} Job;

struct _SlStepTimelineExport
{
  GtkWidget       parent_instance;

  char           *path;
  SlTrace        *trace;
  Job            *job;
  GCancellable   *cancellable;
  char           *message;

  GtkLabel       *label;
  GtkProgressBar *progress_bar;
};

G_DEFINE_FINAL_TYPE (SlStepTimelineExport, sl_step_timeline_export, GTK_TYPE_WIDGET)

enum {
  FINISHED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static Job *
job_ref (Job *job)
{
  g_atomic_int_inc (&job->ref_count);
  return job;
}

static void
job_unref (Job *job)
{
  if (!g_atomic_int_dec_and_test (&job->ref_count))
    return;
  g_free (job->path);
  g_clear_object (&job->trace);
  g_clear_pointer (&job->steps, sl_step_trace_unref);
  g_clear_object (&job->file);
  g_clear_object (&job->progress);
  g_free (job);
}

static void
progress_cb (guint64  bytes_read,
             guint64  total_bytes,
             gpointer user_data)
{
  Job *job = user_data;

  sl_progress_report (job->progress, bytes_read, total_bytes);
}

static void
export_thread (GTask        *task,
               gpointer      source_object,
               gpointer      task_data,
               GCancellable *cancellable)
{
  Job *job = task_data;
  g_autoptr(GError) error = NULL;

  if (job->trace == NULL &&
      (job->trace = sl_trace_load_path (job->path, progress_cb, job, cancellable, &error)) == NULL)
    {
      if (error == NULL)
        g_set_error_literal (&error, G_IO_ERROR, G_IO_ERROR_CANCELLED, _("Cancelled"));
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  g_atomic_int_set (&job->writing, 1);
  /* the reading is done: the bar says so, then that it writes */
  sl_progress_report (job->progress, 1, 1);
  if (!sl_step_export_write (job->trace, job->steps, job->index, job->file, &job->n_events, cancellable, &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  g_task_return_boolean (task, TRUE);
}

/* What the worker told last: the share of the trace read, or that it
 * writes the step. */
static void
show_progress (SlStepTimelineExport *self)
{
  Job *job = self->job;
  guint64 total;

  if (job == NULL)
    return;

  if (g_atomic_int_get (&job->writing))
    {
      g_autofree char *text = g_strdup_printf (_("Writing step %lld…"),
                                               (long long)sl_step_trace_get_step (job->steps, job->index)->step);

      gtk_label_set_label (self->label, text);
      gtk_progress_bar_pulse (self->progress_bar);
      return;
    }

  total = sl_progress_get_total (job->progress);
  gtk_label_set_label (self->label, _("Reading the timeline…"));
  if (total > 0)
    gtk_progress_bar_set_fraction (self->progress_bar, sl_progress_get_fraction (job->progress));
  else
    gtk_progress_bar_pulse (self->progress_bar);
}

static void
finish (SlStepTimelineExport *self,
        gboolean              ok,
        char                 *message)
{
  if (self->job != NULL)
    g_signal_handlers_disconnect_by_data (self->job->progress, self);
  g_clear_pointer (&self->job, job_unref);
  g_clear_object (&self->cancellable);
  g_free (self->message);
  self->message = message;
  gtk_widget_set_visible (GTK_WIDGET (self), FALSE);
  gtk_widget_activate_action (GTK_WIDGET (self), "win.toast", "s", message);
  g_signal_emit (self, signals[FINISHED], 0, ok);
}

static void
export_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  SlStepTimelineExport *self = SL_STEP_TIMELINE_EXPORT (object);
  Job *job = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;
  g_autofree char *events = NULL;

  if (job != self->job)
    return;   /* the profile changed meanwhile */

  /* A timeline read for this profile serves the next step too. */
  if (self->trace == NULL && job->trace != NULL && g_strcmp0 (job->path, self->path) == 0)
    self->trace = g_object_ref (job->trace);

  if (!g_task_propagate_boolean (G_TASK (result), &error))
    {
      finish (self, FALSE, g_strdup (error->message));
      return;
    }

  path = g_file_get_parse_name (job->file);
  events = sl_count_format (job->n_events);
  finish (self, TRUE,
          g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s event of step %lld written to %s",
                                        "%s events of step %lld written to %s", job->n_events),
                           events,
                           (long long)sl_step_trace_get_step (job->steps, job->index)->step, path));
}

void
sl_step_timeline_export_start (SlStepTimelineExport *self,
                               SlStepTrace          *steps,
                               guint                 index,
                               GFile                *file)
{
  g_autoptr(GTask) task = NULL;
  Job *job;

  g_return_if_fail (SL_IS_STEP_TIMELINE_EXPORT (self));
  g_return_if_fail (steps != NULL && index < sl_step_trace_get_n_steps (steps));
  g_return_if_fail (G_IS_FILE (file));
  g_return_if_fail (self->path != NULL);

  if (self->job != NULL)
    return;

  job = g_new0 (Job, 1);
  job->ref_count = 1;
  job->progress = sl_progress_new ();
  job->path = g_strdup (self->path);
  job->trace = self->trace != NULL ? g_object_ref (self->trace) : NULL;
  job->steps = sl_step_trace_ref (steps);
  job->index = index;
  job->file = g_object_ref (file);
  self->job = job;
  self->cancellable = g_cancellable_new ();

  gtk_progress_bar_set_fraction (self->progress_bar, 0);
  gtk_widget_set_visible (GTK_WIDGET (self), TRUE);
  show_progress (self);
  g_signal_connect_object (job->progress, "notify", G_CALLBACK (show_progress), self, G_CONNECT_SWAPPED);

  task = g_task_new (self, self->cancellable, export_cb, job);
  g_task_set_task_data (task, job_ref (job), (GDestroyNotify)job_unref);
  g_task_run_in_thread (task, export_thread);
}

static void
file_chosen_cb (GtkNativeDialog      *dialog,
                int                   response,
                SlStepTimelineExport *self)
{
  g_autoptr(GFile) file = NULL;
  SlStepTrace *steps = g_object_get_data (G_OBJECT (dialog), "sl-steps");
  guint index = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (dialog), "sl-index"));

  if (response == GTK_RESPONSE_ACCEPT && (file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog))) != NULL)
    sl_step_timeline_export_start (self, steps, index, file);

  gtk_native_dialog_destroy (dialog);
  g_object_unref (dialog);
}

void
sl_step_timeline_export_choose (SlStepTimelineExport *self,
                                SlStepTrace          *steps,
                                guint                 index)
{
  GtkRoot *root;
  GtkFileChooserNative *dialog;
  g_autofree char *base = NULL;
  g_autofree char *name = NULL;

  g_return_if_fail (SL_IS_STEP_TIMELINE_EXPORT (self));
  g_return_if_fail (steps != NULL && index < sl_step_trace_get_n_steps (steps));

  if (self->job != NULL)
    {
      gtk_widget_activate_action (GTK_WIDGET (self), "win.toast", "s", _("A step is being exported already"));
      return;
    }

  root = gtk_widget_get_root (GTK_WIDGET (self));
  base = g_path_get_basename (self->path ? self->path : "profile");
  name = g_strdup_printf ("%s-step-%lld.json", base, (long long)sl_step_trace_get_step (steps, index)->step);
  dialog = gtk_file_chooser_native_new (_("Export This Step’s Timeline"), GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                        GTK_FILE_CHOOSER_ACTION_SAVE, _("_Export"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (dialog), TRUE);
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (dialog), name);
  g_object_set_data_full (G_OBJECT (dialog), "sl-steps", sl_step_trace_ref (steps), (GDestroyNotify)sl_step_trace_unref);
  g_object_set_data (G_OBJECT (dialog), "sl-index", GUINT_TO_POINTER (index));
  g_signal_connect_object (dialog, "response", G_CALLBACK (file_chosen_cb), self, 0);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

void
sl_step_timeline_export_cancel (SlStepTimelineExport *self)
{
  g_return_if_fail (SL_IS_STEP_TIMELINE_EXPORT (self));

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
}

/**
 * sl_step_timeline_export_set_profile:
 * @trace: (nullable): the profile's timeline, when it is read already
 */
void
sl_step_timeline_export_set_profile (SlStepTimelineExport *self,
                                     const char           *path,
                                     SlTrace              *trace)
{
  g_return_if_fail (SL_IS_STEP_TIMELINE_EXPORT (self));
  g_return_if_fail (path != NULL);
  g_return_if_fail (trace == NULL || SL_IS_TRACE (trace));

  if (g_strcmp0 (path, self->path) != 0)
    {
      g_free (self->path);
      self->path = g_strdup (path);
      g_clear_object (&self->trace);
    }
  if (trace != NULL)
    g_set_object (&self->trace, trace);
}

gboolean
sl_step_timeline_export_is_busy (SlStepTimelineExport *self)
{
  g_return_val_if_fail (SL_IS_STEP_TIMELINE_EXPORT (self), FALSE);

  return self->job != NULL;
}

const char *
sl_step_timeline_export_get_message (SlStepTimelineExport *self)
{
  g_return_val_if_fail (SL_IS_STEP_TIMELINE_EXPORT (self), NULL);

  return self->message;
}

SlTrace *
sl_step_timeline_export_get_trace (SlStepTimelineExport *self)
{
  g_return_val_if_fail (SL_IS_STEP_TIMELINE_EXPORT (self), NULL);

  return self->trace;
}

GtkWidget *
sl_step_timeline_export_new (void)
{
  return g_object_new (SL_TYPE_STEP_TIMELINE_EXPORT, NULL);
}

static void
sl_step_timeline_export_dispose (GObject *object)
{
  SlStepTimelineExport *self = SL_STEP_TIMELINE_EXPORT (object);

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  if (self->job != NULL)
    g_signal_handlers_disconnect_by_data (self->job->progress, self);
  g_clear_pointer (&self->job, job_unref);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->trace);
  gtk_widget_dispose_template (GTK_WIDGET (self), SL_TYPE_STEP_TIMELINE_EXPORT);
  /* the template's unnamed Cancel button is not one it disposes */
  for (GtkWidget *child; (child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL;)
    gtk_widget_unparent (child);

  G_OBJECT_CLASS (sl_step_timeline_export_parent_class)->dispose (object);
}

static void
sl_step_timeline_export_finalize (GObject *object)
{
  SlStepTimelineExport *self = SL_STEP_TIMELINE_EXPORT (object);

  g_free (self->path);
  g_free (self->message);

  G_OBJECT_CLASS (sl_step_timeline_export_parent_class)->finalize (object);
}

static void
sl_step_timeline_export_class_init (SlStepTimelineExportClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = sl_step_timeline_export_dispose;
  object_class->finalize = sl_step_timeline_export_finalize;

  /**
   * SlStepTimelineExport::finished:
   * @ok: whether the file was written
   */
  signals[FINISHED] =
    g_signal_new ("finished", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_BOOLEAN);

  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_PREFIX "/ui/sl-step-timeline-export.ui");
  gtk_widget_class_bind_template_child (widget_class, SlStepTimelineExport, label);
  gtk_widget_class_bind_template_child (widget_class, SlStepTimelineExport, progress_bar);
  gtk_widget_class_bind_template_callback (widget_class, sl_step_timeline_export_cancel);
  gtk_widget_class_set_css_name (widget_class, "steptimelineexport");
}

static void
sl_step_timeline_export_init (SlStepTimelineExport *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}
