/* sl-workspace-row.c
 *
 * The row is its template, sl-workspace-row.ui: the icon, title,
 * spinner and count are bound to the properties here, which follow the
 * item: a section's number of children, a folder's scan. A section's
 * title is a heading, the one style no property carries.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "sl-finding.h"
#include "sl-folder.h"
#include "sl-job-record.h"
#include "sl-path-names.h"
#include "sl-slurm-state.h"
#include "sl-target-record.h"
#include "sl-workspace-row.h"
#include "sl-workspace-section.h"

struct _SlWorkspaceRow
{
  GtkBox      parent_instance;

  GObject    *item;
  GObject    *watched;      /* a section's children or a folder */
  gulong      watch_id;
  GtkTreeListRow *list_row; /* the panel's tree row, when in the panel */
  GListModel *siblings;     /* the list the item lies in, from list_row */
  gulong      siblings_id;

  const char *icon_name;    /* static or owned by the item */
  char       *title;
  char       *subtitle;
  char       *tooltip;
  gboolean    busy;

  GtkWidget  *title_label;
};

G_DEFINE_FINAL_TYPE (SlWorkspaceRow, sl_workspace_row, GTK_TYPE_BOX)

enum {
  PROP_0,
  PROP_ITEM,
  PROP_LIST_ROW,
  PROP_ICON_NAME,
  PROP_TITLE,
  PROP_SUBTITLE,
  PROP_TOOLTIP,
  PROP_BUSY,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static const char *
job_state_icon (SlJobState state)
{
  switch (state)
    {
    case SL_JOB_STATE_RUNNING:
    case SL_JOB_STATE_QUEUED:
      return "media-playback-start-symbolic";
    case SL_JOB_STATE_SUCCEEDED:
      return "object-select-symbolic";
    case SL_JOB_STATE_FAILED:
      return "dialog-error-symbolic";
    case SL_JOB_STATE_CANCELLED:
      return "process-stop-symbolic";
    case SL_JOB_STATE_LOST:
    default:
      return "dialog-question-symbolic";
    }
}

static const char *
job_state_label (SlJobState state)
{
  switch (state)
    {
    case SL_JOB_STATE_QUEUED: return _("queued");
    case SL_JOB_STATE_RUNNING: return _("running");
    case SL_JOB_STATE_SUCCEEDED: return _("succeeded");
    case SL_JOB_STATE_FAILED: return _("failed");
    case SL_JOB_STATE_CANCELLED: return _("stopped");
    case SL_JOB_STATE_LOST: default: return _("lost (no exit code)");
    }
}

static char *
format_epoch (gint64 seconds)
{
  g_autoptr(GDateTime) time = seconds > 0 ? g_date_time_new_from_unix_local (seconds) : NULL;

  return time ? g_date_time_format (time, "%Y-%m-%d %H:%M:%S") : g_strdup ("—");
}

/* Everything the history keeps of a job, for its tooltip. */
static char *
describe_job (SlJobRecord *job)
{
  g_autofree char *started = format_epoch (sl_job_record_get_started_at (job));
  g_autofree char *finished = format_epoch (sl_job_record_get_finished_at (job));
  GString *str = g_string_new (sl_job_record_get_command (job));

  g_string_append_printf (str, "\n%s: %s", _("Target"),
                          sl_job_record_get_target_name (job) ? sl_job_record_get_target_name (job) : _("this computer"));
  g_string_append_printf (str, "\n%s: %s", _("State"), job_state_label (sl_job_record_get_state (job)));
  if (sl_job_record_get_outcome_reason (job) != NULL)
    g_string_append_printf (str, " (%s)", sl_job_record_get_outcome_reason (job));
  if (sl_job_record_is_slurm (job))
    {
      g_autofree char *words = sl_slurm_describe_state (sl_job_record_get_backend_state (job),
                                                        sl_job_record_get_backend_reason (job));

      g_string_append_printf (str, "\n%s: %s", _("Slurm job"),
                              sl_job_record_get_backend_job_id (job) ? sl_job_record_get_backend_job_id (job) : "—");
      g_string_append_printf (str, "\n%s: %s", _("Slurm state"), words);
    }
  if (sl_job_record_get_state (job) == SL_JOB_STATE_SUCCEEDED || sl_job_record_get_state (job) == SL_JOB_STATE_FAILED)
    g_string_append_printf (str, "\n%s: %d", _("Exit code"), sl_job_record_get_exit_code (job));
  g_string_append_printf (str, "\n%s: %s", _("Started"), started);
  g_string_append_printf (str, "\n%s: %s", _("Ended"), finished);
  if (sl_job_record_get_remote_folder (job) != NULL)
    g_string_append_printf (str, "\n%s: %s", _("Folder"), sl_job_record_get_remote_folder (job));
  if (sl_job_record_get_log_path (job) != NULL)
    g_string_append_printf (str, "\n%s: %s", _("Log"), sl_job_record_get_log_path (job));
  g_string_append_printf (str, "\n%s", _("Activate to show its log in the Console"));
  return g_string_free (str, FALSE);
}

/* The path of a folder or a recent folder, else NULL. */
static char *
dup_item_path (GObject *item)
{
  if (SL_IS_FOLDER (item))
    return g_strdup (sl_folder_get_path (SL_FOLDER (item)));
  if (G_IS_FILE (item))
    return g_file_get_path (G_FILE (item));
  return NULL;
}

/* A folder's name, with as many folders before it as tell it from the
 * others of its list ("level0/rank0_ascend_pt" beside
 * "level1/rank0_ascend_pt"): two runs' folders are often named alike. */
static char *
dup_unique_title (SlWorkspaceRow *self,
                  const char     *name)
{
  g_autoptr(GPtrArray) paths = g_ptr_array_new_with_free_func (g_free);
  g_auto(GStrv) names = NULL;
  char *path = dup_item_path (self->item);
  guint n = self->siblings != NULL ? g_list_model_get_n_items (self->siblings) : 0;
  const char *tail;

  if (path == NULL)
    return g_strdup (name);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(GObject) sibling = g_list_model_get_item (self->siblings, i);
      char *sibling_path = sibling != self->item ? dup_item_path (sibling) : NULL;

      if (sibling_path != NULL)
        g_ptr_array_add (paths, sibling_path);
    }
  g_ptr_array_add (paths, path);
  names = sl_path_names_unique_tails ((const char * const *) paths->pdata, paths->len);
  tail = names[paths->len - 1];
  /* the name alone tells it apart: the item's own name, as it gives it */
  return g_strdup (strchr (tail, G_DIR_SEPARATOR) != NULL ? tail : name);
}

/* Whether another finding of the same folder shows the same name. */
static gboolean
finding_name_shared (SlWorkspaceRow *self,
                     SlFinding      *finding)
{
  g_autofree char *name = sl_finding_dup_display_name (finding);
  guint n = self->siblings != NULL ? g_list_model_get_n_items (self->siblings) : 0;

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(GObject) sibling = g_list_model_get_item (self->siblings, i);
      g_autofree char *sibling_name = NULL;

      if (sibling == G_OBJECT (finding) || !SL_IS_FINDING (sibling))
        continue;
      sibling_name = sl_finding_dup_display_name (SL_FINDING (sibling));
      if (g_strcmp0 (sibling_name, name) == 0)
        return TRUE;
    }
  return FALSE;
}

/* Fills the shown fields from the item as it is now. */
static void
describe_item (SlWorkspaceRow *self)
{
  GObject *item = self->item;

  self->icon_name = NULL;
  g_clear_pointer (&self->title, g_free);
  g_clear_pointer (&self->subtitle, g_free);
  g_clear_pointer (&self->tooltip, g_free);
  self->busy = FALSE;

  if (SL_IS_WORKSPACE_SECTION (item))
    {
      SlWorkspaceSection *section = SL_WORKSPACE_SECTION (item);

      self->icon_name = sl_workspace_section_get_icon_name (section);
      self->title = g_strdup (sl_workspace_section_get_title (section));
      self->subtitle = g_strdup_printf ("%u", g_list_model_get_n_items (sl_workspace_section_get_children (section)));
    }
  else if (SL_IS_FOLDER (item))
    {
      SlFolder *folder = SL_FOLDER (item);
      SlFolderState state = sl_folder_get_state (folder);

      self->title = dup_unique_title (self, sl_folder_get_name (folder));
      self->busy = state == SL_FOLDER_SCANNING;
      if (state == SL_FOLDER_FAILED)
        {
          self->icon_name = "dialog-error-symbolic";
          self->subtitle = g_strdup (_("unreadable"));
        }
      else
        {
          self->icon_name = "folder-symbolic";
          if (state == SL_FOLDER_READY)
            self->subtitle = g_strdup_printf ("%u", g_list_model_get_n_items (sl_folder_get_findings (folder)));
        }
      self->tooltip = g_strdup (state == SL_FOLDER_FAILED ? sl_folder_get_error_message (folder)
                                                          : sl_folder_get_path (folder));
    }
  else if (SL_IS_FINDING (item))
    {
      SlFinding *finding = SL_FINDING (item);
      g_autofree char *summary = sl_finding_dup_summary (finding);

      self->icon_name = sl_finding_kind_to_icon (sl_finding_get_kind (finding));
      self->title = sl_finding_dup_display_name (finding);
      /* Two findings of a folder may have one name: a folder opened as a
       * whole can be a rank's profile and the cluster of its ranks, both
       * named after it. The kind tells them apart. */
      if (finding_name_shared (self, finding))
        self->subtitle = g_strdup (sl_finding_kind_to_short_label (sl_finding_get_kind (finding)));
      self->tooltip = g_strdup_printf ("%s\n%s\n%s", sl_finding_kind_to_label (sl_finding_get_kind (finding)),
                                       sl_finding_get_path (finding), summary);
    }
  else if (SL_IS_TARGET_RECORD (item))
    {
      SlTargetRecord *target = SL_TARGET_RECORD (item);
      gboolean local = sl_target_record_get_kind (target) == SL_TARGET_KIND_LOCAL;

      self->icon_name = local ? "computer-symbolic" : "sl-server-symbolic";
      self->title = g_strdup (sl_target_record_get_name (target));
      self->subtitle = g_strdup (local ? _("local") : "SSH");
      if (local)
        self->tooltip = g_strdup (_("Jobs run on this computer"));
      else
        self->tooltip = g_strdup_printf ("%s%s%s:%u",
                                         sl_target_record_get_user (target) ? sl_target_record_get_user (target) : "",
                                         sl_target_record_get_user (target) ? "@" : "",
                                         sl_target_record_get_host (target), sl_target_record_get_port (target));
    }
  else if (SL_IS_JOB_RECORD (item))
    {
      SlJobRecord *job = SL_JOB_RECORD (item);
      const char *target = sl_job_record_get_target_name (job) ? sl_job_record_get_target_name (job) : "";

      self->icon_name = job_state_icon (sl_job_record_get_state (job));
      self->title = g_strdup (sl_job_record_get_command (job));
      /* A batch job shows Slurm's word beside its target: PENDING, RUNNING, TIMEOUT. */
      if (sl_job_record_is_slurm (job) && sl_job_record_get_backend_state (job) != NULL)
        self->subtitle = g_strdup_printf ("%s · %s", sl_job_record_get_backend_state (job), target);
      else
        self->subtitle = g_strdup (target);
      self->tooltip = describe_job (job);
    }
  else if (G_IS_FILE (item))
    {
      g_autofree char *name = g_file_get_basename (G_FILE (item));

      self->icon_name = "document-open-recent-symbolic";
      self->title = dup_unique_title (self, name);
      self->tooltip = g_file_get_path (G_FILE (item));
    }

  if (SL_IS_WORKSPACE_SECTION (item))
    gtk_widget_add_css_class (self->title_label, "heading");
  else
    gtk_widget_remove_css_class (self->title_label, "heading");

  for (guint i = PROP_ICON_NAME; i < N_PROPS; i++)
    g_object_notify_by_pspec (G_OBJECT (self), properties[i]);
}

static void
watched_changed_cb (SlWorkspaceRow *self)
{
  describe_item (self);
}

static void
stop_watching (SlWorkspaceRow *self)
{
  if (self->watched != NULL)
    {
      g_clear_signal_handler (&self->watch_id, self->watched);
      g_clear_object (&self->watched);
    }
}

static void
stop_watching_siblings (SlWorkspaceRow *self)
{
  if (self->siblings != NULL)
    {
      g_clear_signal_handler (&self->siblings_id, self->siblings);
      g_clear_object (&self->siblings);
    }
}

/* The row of the panel's tree the item is shown in: its parent's children
 * (a section's items, a folder's findings) are the item's list, whose
 * names the row tells its own apart from. */
static void
sl_workspace_row_set_list_row (SlWorkspaceRow *self,
                               GtkTreeListRow *list_row)
{
  g_autoptr(GtkTreeListRow) parent = NULL;
  g_autoptr(GObject) parent_item = NULL;

  if (self->list_row == list_row)
    return;
  stop_watching_siblings (self);
  g_set_object (&self->list_row, list_row);
  if (list_row != NULL && (parent = gtk_tree_list_row_get_parent (list_row)) != NULL)
    parent_item = gtk_tree_list_row_get_item (parent);
  if (SL_IS_WORKSPACE_SECTION (parent_item))
    self->siblings = g_object_ref (sl_workspace_section_get_children (SL_WORKSPACE_SECTION (parent_item)));
  else if (SL_IS_FOLDER (parent_item))
    self->siblings = g_object_ref (sl_folder_get_findings (SL_FOLDER (parent_item)));
  if (self->siblings != NULL)
    self->siblings_id = g_signal_connect_swapped (self->siblings, "items-changed", G_CALLBACK (watched_changed_cb), self);
  describe_item (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LIST_ROW]);
}

static void
sl_workspace_row_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  SlWorkspaceRow *self = SL_WORKSPACE_ROW (object);

  switch (prop_id)
    {
    case PROP_ITEM:
      g_value_set_object (value, self->item);
      break;
    case PROP_LIST_ROW:
      g_value_set_object (value, self->list_row);
      break;
    case PROP_ICON_NAME:
      g_value_set_string (value, self->icon_name);
      break;
    case PROP_TITLE:
      g_value_set_string (value, self->title);
      break;
    case PROP_SUBTITLE:
      g_value_set_string (value, self->subtitle ? self->subtitle : "");
      break;
    case PROP_TOOLTIP:
      g_value_set_string (value, self->tooltip);
      break;
    case PROP_BUSY:
      g_value_set_boolean (value, self->busy);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sl_workspace_row_set_property (GObject      *object,
                               guint         prop_id,
                               const GValue *value,
                               GParamSpec   *pspec)
{
  SlWorkspaceRow *self = SL_WORKSPACE_ROW (object);

  switch (prop_id)
    {
    case PROP_ITEM:
      sl_workspace_row_set_item (self, g_value_get_object (value));
      break;
    case PROP_LIST_ROW:
      sl_workspace_row_set_list_row (self, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sl_workspace_row_dispose (GObject *object)
{
  SlWorkspaceRow *self = SL_WORKSPACE_ROW (object);

  stop_watching (self);
  stop_watching_siblings (self);
  g_clear_object (&self->list_row);
  g_clear_object (&self->item);
  gtk_widget_dispose_template (GTK_WIDGET (object), SL_TYPE_WORKSPACE_ROW);
  G_OBJECT_CLASS (sl_workspace_row_parent_class)->dispose (object);
}

static void
sl_workspace_row_finalize (GObject *object)
{
  SlWorkspaceRow *self = SL_WORKSPACE_ROW (object);

  g_free (self->title);
  g_free (self->subtitle);
  g_free (self->tooltip);
  G_OBJECT_CLASS (sl_workspace_row_parent_class)->finalize (object);
}

static void
sl_workspace_row_class_init (SlWorkspaceRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->get_property = sl_workspace_row_get_property;
  object_class->set_property = sl_workspace_row_set_property;
  object_class->dispose = sl_workspace_row_dispose;
  object_class->finalize = sl_workspace_row_finalize;

  properties[PROP_ITEM] =
    g_param_spec_object ("item", NULL, NULL, G_TYPE_OBJECT,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_LIST_ROW] =
    g_param_spec_object ("list-row", NULL, NULL, GTK_TYPE_TREE_LIST_ROW,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /* What the template shows of the item. */
  properties[PROP_ICON_NAME] =
    g_param_spec_string ("icon-name", NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_TITLE] =
    g_param_spec_string ("title", NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_SUBTITLE] =
    g_param_spec_string ("subtitle", NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_TOOLTIP] =
    g_param_spec_string ("tooltip", NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_BUSY] =
    g_param_spec_boolean ("busy", NULL, NULL, FALSE, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_PREFIX "/ui/sl-workspace-row.ui");
  gtk_widget_class_bind_template_child (widget_class, SlWorkspaceRow, title_label);
}

static void
sl_workspace_row_init (SlWorkspaceRow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

GObject *
sl_workspace_row_get_item (SlWorkspaceRow *self)
{
  g_return_val_if_fail (SL_IS_WORKSPACE_ROW (self), NULL);
  return self->item;
}

void
sl_workspace_row_set_item (SlWorkspaceRow *self,
                           GObject        *item)
{
  g_return_if_fail (SL_IS_WORKSPACE_ROW (self));

  if (self->item == item)
    return;
  stop_watching (self);
  g_set_object (&self->item, item);

  if (SL_IS_WORKSPACE_SECTION (item))
    {
      self->watched = g_object_ref (G_OBJECT (sl_workspace_section_get_children (SL_WORKSPACE_SECTION (item))));
      self->watch_id = g_signal_connect_swapped (self->watched, "items-changed", G_CALLBACK (watched_changed_cb), self);
    }
  else if (SL_IS_FOLDER (item))
    {
      self->watched = g_object_ref (item);
      self->watch_id = g_signal_connect_swapped (item, "notify::state", G_CALLBACK (watched_changed_cb), self);
    }

  describe_item (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ITEM]);
}

const char *
sl_workspace_row_get_title (SlWorkspaceRow *self)
{
  g_return_val_if_fail (SL_IS_WORKSPACE_ROW (self), NULL);
  return self->title;
}

const char *
sl_workspace_row_get_subtitle (SlWorkspaceRow *self)
{
  g_return_val_if_fail (SL_IS_WORKSPACE_ROW (self), NULL);
  return self->subtitle ? self->subtitle : "";
}

const char *
sl_workspace_row_get_tooltip (SlWorkspaceRow *self)
{
  g_return_val_if_fail (SL_IS_WORKSPACE_ROW (self), NULL);
  return self->tooltip;
}
