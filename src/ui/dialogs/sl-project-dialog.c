/* sl-project-dialog.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "sl-dialog-fit.h"
#include "sl-exclude-row.h"
#include "sl-mindx-env.h"
#include "sl-mindx-settings.h"
#include "sl-project-dialog.h"
#include "sl-run-config-row.h"
#include "sl-workflow-path.h"
#include "sl-slurm-config.h"

static const char * const default_excludes[] = { ".git", "__pycache__", "*.ckpt", "*.om", NULL };

typedef struct {
  AdwExpanderRow *expander;  /* an SlRunConfigRow, whose rows the others are */
  AdwEntryRow    *name;
  AdwEntryRow    *command;
  AdwEntryRow    *arguments;
  AdwEntryRow    *environment;
  AdwEntryRow    *folder;
  AdwEntryRow    *pull;
  AdwComboRow    *kind;
  AdwActionRow   *error;
  char           *options;   /* the configuration's options, which have no rows here */
  /* A MindX SDK app's settings, shown for that kind only. */
  AdwEntryRow    *mindx_sdk_home;
  AdwEntryRow    *mindx_toolkit;
  AdwEntryRow    *mindx_pipeline;
  AdwEntryRow    *mindx_entry;
  /* The pipeline is read in a worker: the last path asked, and the answer. */
  char           *pipeline_key;
  char           *pipeline_reason;
  gboolean        pipeline_pending;
  GCancellable   *pipeline_cancellable;
} ConfigRows;

struct _SlProjectDialog
{
  AdwWindow             parent_instance;

  SlWorkspace          *workspace;
  GCancellable         *cancellable;   /* cancelled when the dialog goes */
  SlProjectRecord      *saving;
  GPtrArray            *projects;      /* SlProjectRecord, as in project_row after "New Project" */
  GArray               *target_ids;    /* gint64, as in target_row */
  GPtrArray            *configs;       /* ConfigRows */
  GPtrArray            *exclude_rows;  /* SlExcludeRow */
  GtkFileChooserNative *chooser;
  gboolean              can_save;
  gboolean              loading;
  char                 *loaded_values; /* the form as loaded, to tell a change */

  AdwToastOverlay      *toast_overlay;
  GtkButton            *save_button;
  GtkButton            *remove_button;
  AdwComboRow          *project_row;
  AdwEntryRow          *name_row;
  AdwActionRow         *name_error;
  AdwEntryRow          *folder_row;
  AdwActionRow         *folder_error;
  AdwComboRow          *target_row;
  AdwEntryRow          *remote_folder_row;
  AdwPreferencesGroup  *excludes_group;
  AdwEntryRow          *exclude_entry;
  AdwPreferencesGroup  *configs_group;
};

G_DEFINE_FINAL_TYPE (SlProjectDialog, sl_project_dialog, ADW_TYPE_WINDOW)

static void update_validation (SlProjectDialog *self);
static void validate_cb       (SlProjectDialog *self);

static char *
stripped_text (AdwEntryRow *row)
{
  return g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (row))));
}

static void
set_row (AdwEntryRow *row,
         const char  *text)
{
  gtk_editable_set_text (GTK_EDITABLE (row), text != NULL ? text : "");
}

static char *
expand_home (const char *path)
{
  if (g_str_has_prefix (path, "~/"))
    return g_build_filename (g_get_home_dir (), path + 2, NULL);
  return g_strdup (path);
}

/* Words joined back into what a user would type: plain words stay
 * plain, anything else is quoted. */
static char *
join_words (const char * const *words)
{
  GString *out = g_string_new (NULL);

  for (guint i = 0; words != NULL && words[i] != NULL; i++)
    {
      gboolean plain = words[i][0] != '\0';

      for (const char *p = words[i]; *p != '\0' && plain; p++)
        plain = g_ascii_isalnum (*p) || strchr ("_./:=,@%+-*", *p) != NULL;

      if (out->len > 0)
        g_string_append_c (out, ' ');
      if (plain)
        g_string_append (out, words[i]);
      else
        {
          g_autofree char *quoted = g_shell_quote (words[i]);

          g_string_append (out, quoted);
        }
    }
  return g_string_free (out, FALSE);
}

/* Splits what the user typed into words, as a shell would; an empty
 * text is no words. */
static char **
split_words (AdwEntryRow  *row,
             GError      **error)
{
  g_autofree char *text = stripped_text (row);
  char **words = NULL;

  if (text[0] == '\0')
    return g_new0 (char *, 1);
  if (!g_shell_parse_argv (text, NULL, &words, error))
    return NULL;
  return words;
}

static gboolean
valid_variable (const char *assignment)
{
  const char *equals = strchr (assignment, '=');

  if (equals == NULL || equals == assignment || g_ascii_isdigit (assignment[0]))
    return FALSE;
  for (const char *p = assignment; p < equals; p++)
    {
      if (!g_ascii_isalnum (*p) && *p != '_')
        return FALSE;
    }
  return TRUE;
}

/* Run configurations */

static void
config_rows_free (gpointer data)
{
  ConfigRows *rows = data;

  if (rows->pipeline_cancellable != NULL)
    g_cancellable_cancel (rows->pipeline_cancellable);
  g_clear_object (&rows->pipeline_cancellable);
  g_free (rows->pipeline_key);
  g_free (rows->pipeline_reason);
  g_free (rows->options);
  g_free (rows);
}

static gboolean
is_mindx (ConfigRows *rows)
{
  return adw_combo_row_get_selected (rows->kind) == SL_RUN_CONFIG_KIND_MINDX;
}

static SlMindxSettings *
mindx_settings_from_rows (ConfigRows *rows)
{
  SlMindxSettings *settings = sl_mindx_settings_new ();
  char *toolkit = stripped_text (rows->mindx_toolkit);
  char *pipeline = stripped_text (rows->mindx_pipeline);

  settings->sdk_home = stripped_text (rows->mindx_sdk_home);
  settings->entry = stripped_text (rows->mindx_entry);
  settings->toolkit = toolkit[0] != '\0' ? toolkit : (g_free (toolkit), NULL);
  settings->pipeline = pipeline[0] != '\0' ? pipeline : (g_free (pipeline), NULL);
  return settings;
}

typedef struct {
  SlProjectDialog *self;
  ConfigRows      *rows;
  GCancellable    *cancellable;
} PipelineCheck;

static void
pipeline_checked_cb (GObject      *object,
                     GAsyncResult *result,
                     gpointer      data)
{
  PipelineCheck *check = data;
  g_autoptr(GError) error = NULL;
  gboolean ok = sl_mindx_settings_check_pipeline_finish (result, &error);

  /* The rows went, or another path was asked since. */
  if (!g_cancellable_is_cancelled (check->cancellable))
    {
      check->rows->pipeline_pending = FALSE;
      g_free (check->rows->pipeline_reason);
      check->rows->pipeline_reason = ok ? NULL : g_strdup (error->message);
      update_validation (check->self);
    }
  g_object_unref (check->self);
  g_object_unref (check->cancellable);
  g_free (check);
}

/* Reads the pipeline in a worker, once for each path typed. */
static void
start_pipeline_check (SlProjectDialog *self,
                      ConfigRows      *rows,
                      const char      *project_dir,
                      const char      *pipeline)
{
  g_autofree char *key = g_build_filename (project_dir, pipeline, NULL);
  PipelineCheck *check;

  if (g_strcmp0 (key, rows->pipeline_key) == 0)
    return;
  if (rows->pipeline_cancellable != NULL)
    g_cancellable_cancel (rows->pipeline_cancellable);
  g_clear_object (&rows->pipeline_cancellable);
  rows->pipeline_cancellable = g_cancellable_new ();
  g_free (rows->pipeline_key);
  rows->pipeline_key = g_steal_pointer (&key);
  g_clear_pointer (&rows->pipeline_reason, g_free);
  rows->pipeline_pending = TRUE;

  check = g_new0 (PipelineCheck, 1);
  check->self = g_object_ref (self);
  check->rows = rows;
  check->cancellable = g_object_ref (rows->pipeline_cancellable);
  sl_mindx_settings_check_pipeline_async (project_dir, pipeline, rows->pipeline_cancellable, pipeline_checked_cb, check);
}

/* Why a MindX app's rows cannot be saved, or NULL; the pipeline is
 * looked for in the project folder typed above, and read in a worker. */
static char *
check_mindx_rows (SlProjectDialog *self,
                  ConfigRows      *rows,
                  const char      *project_dir)
{
  g_autoptr(SlMindxSettings) settings = mindx_settings_from_rows (rows);
  g_autoptr(GError) error = NULL;

  if (!sl_mindx_settings_check_sdk_home (settings->sdk_home, &error) ||
      (settings->toolkit != NULL && !sl_workflow_path_check (settings->toolkit, _("The toolkit folder"), &error)) ||
      !sl_mindx_settings_check_entry (settings->entry, &error) ||
      !sl_mindx_settings_check_pipeline_path (project_dir, settings->pipeline, &error))
    return g_strdup (error->message);
  start_pipeline_check (self, rows, project_dir, settings->pipeline);
  if (rows->pipeline_pending)
    return g_strdup (_("Reading the pipeline file…"));
  return g_strdup (rows->pipeline_reason);
}

/* Why a run configuration cannot be saved, or NULL. */
static char *
check_config (SlProjectDialog *self,
              ConfigRows      *rows,
              const char      *project_dir)
{
  g_autofree char *name = stripped_text (rows->name);
  g_autofree char *command = stripped_text (rows->command);
  g_auto(GStrv) arguments = NULL;
  g_auto(GStrv) environment = NULL;
  g_auto(GStrv) pull = NULL;
  g_autoptr(GError) error = NULL;

  if (name[0] == '\0')
    return g_strdup (_("Type a name for this run configuration"));
  if (is_mindx (rows))
    {
      char *reason = check_mindx_rows (self, rows, project_dir);

      if (reason != NULL)
        return reason;
    }
  else if (command[0] == '\0')
    return g_strdup (_("Type the command to run, such as python3 train.py"));
  if ((arguments = split_words (rows->arguments, &error)) == NULL)
    return g_strdup_printf (_("The arguments cannot be read: %s"), error->message);
  if ((environment = split_words (rows->environment, &error)) == NULL)
    return g_strdup_printf (_("The environment variables cannot be read: %s"), error->message);
  for (guint i = 0; environment[i] != NULL; i++)
    {
      if (!valid_variable (environment[i]))
        return g_strdup_printf (_("“%s” is not NAME=VALUE: a variable name has letters, digits and _, "
                                  "and does not start with a digit"), environment[i]);
    }
  if ((pull = split_words (rows->pull, &error)) == NULL)
    return g_strdup_printf (_("The output folders cannot be read: %s"), error->message);
  return NULL;
}

static SlRunConfigRecord *
config_from_rows (ConfigRows *rows)
{
  g_autofree char *name = stripped_text (rows->name);
  g_autofree char *command = stripped_text (rows->command);
  g_autofree char *folder = stripped_text (rows->folder);
  g_auto(GStrv) arguments = split_words (rows->arguments, NULL);
  g_auto(GStrv) environment = split_words (rows->environment, NULL);
  g_auto(GStrv) pull = split_words (rows->pull, NULL);
  SlRunConfigRecord *config;

  config = sl_run_config_record_new (adw_combo_row_get_selected (rows->kind), name, command);
  sl_run_config_record_set_arguments (config, (const char * const *)arguments);
  sl_run_config_record_set_environment (config, (const char * const *)environment);
  sl_run_config_record_set_working_folder (config, folder[0] != '\0' ? folder : NULL);
  sl_run_config_record_set_pull_folders (config, (const char * const *)pull);
  sl_run_config_record_set_options (config, rows->options);
  if (is_mindx (rows))
    {
      g_autoptr(SlMindxSettings) settings = mindx_settings_from_rows (rows);

      sl_mindx_settings_store (settings, config);
    }
  return config;
}

static void
config_changed_cb (SlProjectDialog *self)
{
  update_validation (self);
}

static void
remove_config_cb (SlRunConfigRow  *row,
                  SlProjectDialog *self)
{
  for (guint i = 0; i < self->configs->len; i++)
    {
      ConfigRows *rows = g_ptr_array_index (self->configs, i);

      if (rows->expander == ADW_EXPANDER_ROW (row))
        {
          adw_preferences_group_remove (self->configs_group, GTK_WIDGET (row));
          g_ptr_array_remove_index (self->configs, i);
          break;
        }
    }
  update_validation (self);
}

static AdwEntryRow *
fill_config_entry (ConfigRows       *rows,
                   SlRunConfigField  field,
                   const char       *text)
{
  AdwEntryRow *row = sl_run_config_row_get_entry (SL_RUN_CONFIG_ROW (rows->expander), field);

  set_row (row, text);
  return row;
}

/* The SDK home, toolkit, pipeline and entry script of a MindX app, from
 * the configuration's "mindx" group. */
static void
fill_mindx_rows (ConfigRows        *rows,
                 SlRunConfigRecord *config)
{
  g_autoptr(SlMindxSettings) settings = sl_mindx_settings_from_config (config);
  /* TRANSLATORS: %s is the toolkit's default folder */
  g_autofree char *toolkit_tip = g_strdup_printf (_("Empty: %s"), SL_MINDX_DEFAULT_TOOLKIT);

  rows->mindx_sdk_home = fill_config_entry (rows, SL_RUN_CONFIG_FIELD_MINDX_SDK_HOME, settings->sdk_home);
  rows->mindx_toolkit = fill_config_entry (rows, SL_RUN_CONFIG_FIELD_MINDX_TOOLKIT, settings->toolkit);
  gtk_widget_set_tooltip_text (GTK_WIDGET (rows->mindx_toolkit), toolkit_tip);
  rows->mindx_pipeline = fill_config_entry (rows, SL_RUN_CONFIG_FIELD_MINDX_PIPELINE, settings->pipeline);
  rows->mindx_entry = fill_config_entry (rows, SL_RUN_CONFIG_FIELD_MINDX_ENTRY, settings->entry);
}

static ConfigRows *
add_config_rows (SlProjectDialog   *self,
                 SlRunConfigRecord *config)
{
  ConfigRows *rows = g_new0 (ConfigRows, 1);
  g_autofree char *arguments = join_words (sl_run_config_record_get_arguments (config));
  g_autofree char *environment = join_words (sl_run_config_record_get_environment (config));
  g_autofree char *pull = join_words (sl_run_config_record_get_pull_folders (config));
  gboolean slurm_enabled = FALSE;
  g_autoptr(SlSlurmOptions) slurm = sl_slurm_config_read (config, &slurm_enabled);
  SlRunConfigRow *row = SL_RUN_CONFIG_ROW (sl_run_config_row_new ());

  rows->expander = ADW_EXPANDER_ROW (row);
  rows->options = g_strdup (sl_run_config_record_get_options (config));
  rows->name = fill_config_entry (rows, SL_RUN_CONFIG_FIELD_NAME, sl_run_config_record_get_name (config));
  rows->kind = sl_run_config_row_get_kind_row (row);
  adw_combo_row_set_selected (rows->kind, sl_run_config_record_get_kind (config));
  rows->command = fill_config_entry (rows, SL_RUN_CONFIG_FIELD_COMMAND, sl_run_config_record_get_command (config));
  fill_mindx_rows (rows, config);
  rows->arguments = fill_config_entry (rows, SL_RUN_CONFIG_FIELD_ARGUMENTS, arguments);
  rows->environment = fill_config_entry (rows, SL_RUN_CONFIG_FIELD_ENVIRONMENT, environment);
  rows->folder = fill_config_entry (rows, SL_RUN_CONFIG_FIELD_FOLDER, sl_run_config_record_get_working_folder (config));
  rows->pull = fill_config_entry (rows, SL_RUN_CONFIG_FIELD_PULL, pull);
  if (slurm != NULL)
    {
      g_autofree char *summary = sl_slurm_config_dup_summary (slurm, slurm_enabled);

      sl_run_config_row_set_slurm_summary (row, summary);
    }
  rows->error = sl_run_config_row_get_error_row (row);
  g_signal_connect_object (row, "changed", G_CALLBACK (config_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (row, "remove", G_CALLBACK (remove_config_cb), self, 0);

  adw_preferences_group_add (self->configs_group, GTK_WIDGET (row));
  g_ptr_array_add (self->configs, rows);
  return rows;
}

static void
clear_configs (SlProjectDialog *self)
{
  for (guint i = 0; i < self->configs->len; i++)
    {
      ConfigRows *rows = g_ptr_array_index (self->configs, i);

      adw_preferences_group_remove (self->configs_group, GTK_WIDGET (rows->expander));
    }
  g_ptr_array_set_size (self->configs, 0);
}

/* A new run configuration is at the bottom: bring it into view. */
static gboolean
scroll_to_last_config_cb (gpointer data)
{
  SlProjectDialog *self = data;
  ConfigRows *rows = self->configs->len > 0 ? g_ptr_array_index (self->configs, self->configs->len - 1) : NULL;
  GtkWidget *scrolled = gtk_widget_get_ancestor (GTK_WIDGET (self->configs_group), GTK_TYPE_SCROLLED_WINDOW);
  GtkWidget *content = scrolled ? gtk_scrolled_window_get_child (GTK_SCROLLED_WINDOW (scrolled)) : NULL;
  graphene_point_t point;

  if (rows != NULL && content != NULL &&
      gtk_widget_compute_point (GTK_WIDGET (rows->expander), content, &GRAPHENE_POINT_INIT (0, 0), &point))
    {
      GtkAdjustment *adjustment = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scrolled));

      /* The point is in the viewport, which shows the scrolled part. */
      gtk_adjustment_set_value (adjustment, gtk_adjustment_get_value (adjustment) + point.y - 60);
    }
  return G_SOURCE_REMOVE;
}

static void
add_run_config_action (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *param)
{
  SlProjectDialog *self = SL_PROJECT_DIALOG (widget);
  g_autoptr(SlRunConfigRecord) config = sl_run_config_record_new (SL_RUN_CONFIG_KIND_TRAIN, "", "");
  ConfigRows *rows = add_config_rows (self, config);

  /* One open at a time keeps the list short. */
  for (guint i = 0; i + 1 < self->configs->len; i++)
    adw_expander_row_set_expanded (((ConfigRows *)g_ptr_array_index (self->configs, i))->expander, FALSE);
  adw_expander_row_set_expanded (rows->expander, TRUE);
  gtk_widget_grab_focus (GTK_WIDGET (rows->name));
  update_validation (self);
  /* After the layout of the new rows. */
  g_timeout_add_full (G_PRIORITY_DEFAULT, 100, scroll_to_last_config_cb, g_object_ref (self), g_object_unref);
}

/* Upload excludes */

static void
remove_exclude_action (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *parameter)
{
  SlProjectDialog *self = SL_PROJECT_DIALOG (widget);
  const char *pattern = g_variant_get_string (parameter, NULL);

  for (guint i = 0; i < self->exclude_rows->len; i++)
    {
      GtkWidget *row = g_ptr_array_index (self->exclude_rows, i);

      if (g_strcmp0 (sl_exclude_row_get_pattern (SL_EXCLUDE_ROW (row)), pattern) == 0)
        {
          g_ptr_array_remove_index (self->exclude_rows, i);
          adw_preferences_group_remove (self->excludes_group, row);
          break;
        }
    }
  validate_cb (self);
}

static void
add_exclude (SlProjectDialog *self,
             const char      *pattern)
{
  GtkWidget *row;

  for (guint i = 0; i < self->exclude_rows->len; i++)
    {
      if (g_str_equal (sl_exclude_row_get_pattern (g_ptr_array_index (self->exclude_rows, i)), pattern))
        return;
    }

  row = sl_exclude_row_new (pattern);
  adw_preferences_group_add (self->excludes_group, row);
  g_ptr_array_add (self->exclude_rows, row);
}

static void
set_excludes (SlProjectDialog    *self,
              const char * const *patterns)
{
  while (self->exclude_rows->len > 0)
    {
      GtkWidget *row = g_ptr_array_steal_index (self->exclude_rows, self->exclude_rows->len - 1);

      adw_preferences_group_remove (self->excludes_group, row);
    }
  for (guint i = 0; patterns != NULL && patterns[i] != NULL; i++)
    add_exclude (self, patterns[i]);
}

static void
add_exclude_cb (SlProjectDialog *self)
{
  g_autofree char *pattern = stripped_text (self->exclude_entry);

  if (pattern[0] != '\0')
    add_exclude (self, pattern);
  set_row (self->exclude_entry, "");
  validate_cb (self);
}

/* The whole form */

static gboolean
check_form (SlProjectDialog  *self,
            GError          **error)
{
  g_autofree char *name = stripped_text (self->name_row);
  g_autofree char *folder = stripped_text (self->folder_row);
  g_autofree char *name_reason = NULL;
  g_autofree char *folder_reason = NULL;
  gint64 own_id = 0;
  guint selected = adw_combo_row_get_selected (self->project_row);
  gboolean ok;

  if (selected != GTK_INVALID_LIST_POSITION && selected > 0 && selected <= self->projects->len)
    own_id = sl_project_record_get_id (g_ptr_array_index (self->projects, selected - 1));

  if (name[0] == '\0')
    name_reason = g_strdup (_("Type a name for the project"));
  for (guint i = 0; name_reason == NULL && i < self->projects->len; i++)
    {
      SlProjectRecord *other = g_ptr_array_index (self->projects, i);

      if (sl_project_record_get_id (other) != own_id && g_str_equal (sl_project_record_get_name (other), name))
        name_reason = g_strdup_printf (_("Another project is already called “%s”"), name);
    }

  if (folder[0] == '\0')
    folder_reason = g_strdup (_("Type or choose the folder on this computer that holds the project"));
  else
    {
      g_autofree char *expanded = expand_home (folder);

      if (!g_file_test (expanded, G_FILE_TEST_IS_DIR))
        folder_reason = g_strdup_printf (_("There is no folder %s on this computer"), expanded);
    }

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->name_error), name_reason ? name_reason : "");
  gtk_widget_set_visible (GTK_WIDGET (self->name_error), name_reason != NULL && !self->loading);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->folder_error), folder_reason ? folder_reason : "");
  gtk_widget_set_visible (GTK_WIDGET (self->folder_error), folder_reason != NULL && !self->loading);
  ok = name_reason == NULL && folder_reason == NULL;
  if (!ok)
    g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, name_reason ? name_reason : folder_reason);

  for (guint i = 0; i < self->configs->len; i++)
    {
      ConfigRows *rows = g_ptr_array_index (self->configs, i);
      g_autofree char *expanded = expand_home (folder);
      g_autofree char *reason = check_config (self, rows, expanded);

      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (rows->error), reason ? reason : "");
      gtk_widget_set_visible (GTK_WIDGET (rows->error), reason != NULL);
      if (reason != NULL)
        gtk_widget_add_css_class (GTK_WIDGET (rows->expander), "error");
      else
        gtk_widget_remove_css_class (GTK_WIDGET (rows->expander), "error");
      if (reason != NULL && ok)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, "%s: %s",
                       adw_preferences_row_get_title (ADW_PREFERENCES_ROW (rows->expander)), reason);
          ok = FALSE;
        }
    }

  return ok;
}

/* Every value of the form, one a line, below @widget. */
static void
append_values (SlProjectDialog *self,
               GtkWidget       *widget,
               GString         *out)
{
  /* Which project, and a pattern typed but not added yet, are no change. */
  if (widget == GTK_WIDGET (self->project_row) || widget == GTK_WIDGET (self->exclude_entry))
    return;
  if (GTK_IS_EDITABLE (widget) && !GTK_IS_TEXT (widget))
    g_string_append_printf (out, "t %s\n", gtk_editable_get_text (GTK_EDITABLE (widget)));
  else if (ADW_IS_COMBO_ROW (widget))
    g_string_append_printf (out, "c %u\n", adw_combo_row_get_selected (ADW_COMBO_ROW (widget)));
  else if (GTK_IS_SWITCH (widget))
    g_string_append_printf (out, "s %d\n", gtk_switch_get_active (GTK_SWITCH (widget)));
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL; child = gtk_widget_get_next_sibling (child))
    append_values (self, child, out);
}

static char *
dup_form_values (SlProjectDialog *self)
{
  GString *out = g_string_new (NULL);

  append_values (self, GTK_WIDGET (self), out);
  for (guint i = 0; i < self->exclude_rows->len; i++)
    g_string_append_printf (out, "x %s\n", sl_exclude_row_get_pattern (g_ptr_array_index (self->exclude_rows, i)));
  g_string_append_printf (out, "r %u\n", self->configs->len);
  return g_string_free (out, FALSE);
}

static gboolean
form_changed (SlProjectDialog *self)
{
  g_autofree char *values = dup_form_values (self);

  return g_strcmp0 (values, self->loaded_values) != 0;
}

/* The remote folder's title says where an empty one uploads to, as the
 * run works it out (sl_target_dup_project_base_dir()). */
static void
update_remote_folder_title (SlProjectDialog *self)
{
  guint index = adw_combo_row_get_selected (self->target_row);
  SlTargetRecord *target = NULL;
  g_autofree char *folder = stripped_text (self->folder_row);
  g_autofree char *title = NULL;

  if (self->workspace != NULL && index != GTK_INVALID_LIST_POSITION && index < self->target_ids->len)
    target = sl_workspace_lookup_target (self->workspace, g_array_index (self->target_ids, gint64, index));

  if (target != NULL && sl_target_record_get_kind (target) != SL_TARGET_KIND_SSH)
    title = g_strdup (_("Remote folder (empty: on this computer the project runs in its local folder)"));
  else if (target != NULL && folder[0] != '\0')
    {
      const char *base = sl_target_record_get_remote_base_folder (target);
      g_autofree char *name = g_path_get_basename (folder);
      g_autofree char *path = g_build_path ("/", base && base[0] ? base : "~/sightline", name, NULL);

      /* TRANSLATORS: %s is the folder on the target an empty field means */
      title = g_strdup_printf (_("Remote folder (empty: %s)"), path);
    }
  else
    title = g_strdup (_("Remote folder (empty: the target’s folder for projects, then the local folder’s name)"));
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->remote_folder_row), title);
}

static void
update_validation (SlProjectDialog *self)
{
  guint selected = adw_combo_row_get_selected (self->project_row);

  update_remote_folder_title (self);
  /* Save is for a change: a project as loaded has nothing to save. */
  self->can_save = check_form (self, NULL) && form_changed (self);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "project.save", self->can_save);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "project.remove", selected != GTK_INVALID_LIST_POSITION && selected > 0);
  gtk_widget_set_visible (GTK_WIDGET (self->remove_button), selected != GTK_INVALID_LIST_POSITION && selected > 0);
}

static void
validate_cb (SlProjectDialog *self)
{
  if (!self->loading)
    update_validation (self);
}

/**
 * sl_project_dialog_build_record:
 *
 * Returns: (transfer full) (nullable): the project the form describes,
 *   with the id of the project being edited, or %NULL and @error saying
 *   what is wrong
 */
SlProjectRecord *
sl_project_dialog_build_record (SlProjectDialog  *self,
                                GError          **error)
{
  g_autoptr(SlProjectRecord) project = NULL;
  g_autofree char *name = NULL;
  g_autofree char *folder = NULL;
  g_autofree char *remote = NULL;
  g_autoptr(GPtrArray) excludes = g_ptr_array_new ();
  guint selected, target;

  g_return_val_if_fail (SL_IS_PROJECT_DIALOG (self), NULL);

  if (!check_form (self, error))
    return NULL;

  name = stripped_text (self->name_row);
  folder = stripped_text (self->folder_row);
  remote = stripped_text (self->remote_folder_row);
  project = sl_project_record_new (name, folder);

  selected = adw_combo_row_get_selected (self->project_row);
  if (selected != GTK_INVALID_LIST_POSITION && selected > 0 && selected <= self->projects->len)
    sl_project_record_set_id (project, sl_project_record_get_id (g_ptr_array_index (self->projects, selected - 1)));

  target = adw_combo_row_get_selected (self->target_row);
  if (target != GTK_INVALID_LIST_POSITION && target < self->target_ids->len)
    sl_project_record_set_target_id (project, g_array_index (self->target_ids, gint64, target));
  sl_project_record_set_remote_folder (project, remote[0] != '\0' ? remote : NULL);

  for (guint i = 0; i < self->exclude_rows->len; i++)
    g_ptr_array_add (excludes, (gpointer)sl_exclude_row_get_pattern (g_ptr_array_index (self->exclude_rows, i)));
  g_ptr_array_add (excludes, NULL);
  sl_project_record_set_upload_excludes (project, (const char * const *)excludes->pdata);

  for (guint i = 0; i < self->configs->len; i++)
    {
      g_autoptr(SlRunConfigRecord) config = config_from_rows (g_ptr_array_index (self->configs, i));

      sl_project_record_add_run_config (project, config);
    }

  return g_steal_pointer (&project);
}

static void
load_project (SlProjectDialog *self,
              SlProjectRecord *project)
{
  self->loading = TRUE;

  set_row (self->name_row, project ? sl_project_record_get_name (project) : "");
  set_row (self->folder_row, project ? sl_project_record_get_local_folder (project) : "");
  set_row (self->remote_folder_row, project ? sl_project_record_get_remote_folder (project) : "");
  set_excludes (self, project ? sl_project_record_get_upload_excludes (project) : default_excludes);

  adw_combo_row_set_selected (self->target_row, 0);
  for (guint i = 0; project != NULL && i < self->target_ids->len; i++)
    {
      if (g_array_index (self->target_ids, gint64, i) == sl_project_record_get_target_id (project))
        adw_combo_row_set_selected (self->target_row, i);
    }

  clear_configs (self);
  for (guint i = 0; project != NULL && i < sl_project_record_get_n_run_configs (project); i++)
    add_config_rows (self, sl_project_record_get_run_config (project, i));

  self->loading = FALSE;
  g_free (self->loaded_values);
  self->loaded_values = dup_form_values (self);
  update_validation (self);
  /* A new form is not red before anything was typed. */
  if (project == NULL)
    {
      gtk_widget_set_visible (GTK_WIDGET (self->name_error), FALSE);
      gtk_widget_set_visible (GTK_WIDGET (self->folder_error), FALSE);
    }
}

static void
project_selected_cb (SlProjectDialog *self)
{
  guint selected = adw_combo_row_get_selected (self->project_row);

  if (self->projects == NULL)
    return;
  load_project (self, selected > 0 && selected <= self->projects->len
                        ? g_ptr_array_index (self->projects, selected - 1) : NULL);
}

static void
reload_projects (SlProjectDialog *self,
                 gint64           select_id)
{
  GListModel *projects = sl_workspace_get_projects (self->workspace);
  g_autoptr(GtkStringList) names = gtk_string_list_new (NULL);
  guint position = 0;

  g_clear_pointer (&self->projects, g_ptr_array_unref);
  self->projects = g_ptr_array_new_with_free_func (g_object_unref);
  for (guint i = 0; i < g_list_model_get_n_items (projects); i++)
    g_ptr_array_add (self->projects, g_list_model_get_item (projects, i));

  gtk_string_list_append (names, _("New Project"));
  for (guint i = 0; i < self->projects->len; i++)
    {
      SlProjectRecord *project = g_ptr_array_index (self->projects, i);

      gtk_string_list_append (names, sl_project_record_get_name (project));
      if (sl_project_record_get_id (project) == select_id)
        position = i + 1;
    }

  /* Setting the model selects its first item; the load follows the
   * position set after it. */
  self->loading = TRUE;
  adw_combo_row_set_model (self->project_row, G_LIST_MODEL (names));
  self->loading = FALSE;
  adw_combo_row_set_selected (self->project_row, position);
  project_selected_cb (self);
}

static void
load_targets (SlProjectDialog *self)
{
  GListModel *targets = sl_workspace_get_targets (self->workspace);
  g_autoptr(GtkStringList) names = gtk_string_list_new (NULL);

  g_array_set_size (self->target_ids, 0);
  for (guint i = 0; i < g_list_model_get_n_items (targets); i++)
    {
      g_autoptr(SlTargetRecord) target = g_list_model_get_item (targets, i);
      gint64 id = sl_target_record_get_id (target);

      gtk_string_list_append (names, sl_target_record_get_name (target));
      g_array_append_val (self->target_ids, id);
    }
  adw_combo_row_set_model (self->target_row, G_LIST_MODEL (names));
}

static void
saved_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(SlProjectDialog) self = user_data;
  g_autoptr(SlProjectRecord) project = g_steal_pointer (&self->saving);
  g_autoptr(GError) error = NULL;

  if (g_cancellable_is_cancelled (self->cancellable))
    return;
  gtk_widget_set_sensitive (GTK_WIDGET (self), TRUE);

  if (!sl_workspace_change_finish (SL_WORKSPACE (object), result, &error))
    {
      adw_toast_overlay_add_toast (self->toast_overlay, adw_toast_new (error->message));
      return;
    }

  reload_projects (self, sl_project_record_get_id (project));
  adw_toast_overlay_add_toast (self->toast_overlay, adw_toast_new (_("Project saved")));
}

/* Written by the workspace's writer, which also refuses a name taken. */
static void
save_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *param)
{
  SlProjectDialog *self = SL_PROJECT_DIALOG (widget);
  g_autoptr(SlProjectRecord) project = NULL;
  g_autoptr(GError) error = NULL;

  project = sl_project_dialog_build_record (self, &error);
  if (project != NULL && !sl_workspace_has_store (self->workspace))
    g_set_error_literal (&error, G_IO_ERROR, G_IO_ERROR_NOT_INITIALIZED,
                         _("The workspace database is not open; see Problems for why"));
  if (error != NULL)
    {
      adw_toast_overlay_add_toast (self->toast_overlay, adw_toast_new (error->message));
      return;
    }

  /* The record gets its id when written. */
  g_set_object (&self->saving, project);
  gtk_widget_set_sensitive (GTK_WIDGET (self), FALSE);
  sl_workspace_save_project_async (self->workspace, project, NULL, saved_cb, g_object_ref (self));
}

static void
removed_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(SlProjectDialog) self = user_data;
  g_autoptr(GError) error = NULL;
  gboolean removed = sl_workspace_change_finish (SL_WORKSPACE (object), result, &error);

  /* Closed meanwhile: the change is written all the same. */
  if (g_cancellable_is_cancelled (self->cancellable))
    return;
  if (!removed)
    adw_toast_overlay_add_toast (self->toast_overlay, adw_toast_new (error->message));
  reload_projects (self, 0);
}

static void
remove_response_cb (AdwMessageDialog *dialog,
                    const char       *response,
                    SlProjectDialog  *self)
{
  guint selected = adw_combo_row_get_selected (self->project_row);

  if (!g_str_equal (response, "remove") || selected == 0 || selected > self->projects->len)
    return;

  sl_workspace_remove_project_async (self->workspace,
                                     sl_project_record_get_id (g_ptr_array_index (self->projects, selected - 1)),
                                     NULL, removed_cb, g_object_ref (self));
}

static void
remove_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *param)
{
  SlProjectDialog *self = SL_PROJECT_DIALOG (widget);
  guint selected = adw_combo_row_get_selected (self->project_row);
  g_autofree char *heading = NULL;
  GtkWidget *dialog;

  if (selected == 0 || selected > self->projects->len)
    return;

  heading = g_strdup_printf (_("Remove “%s”?"), sl_project_record_get_name (g_ptr_array_index (self->projects, selected - 1)));
  dialog = adw_message_dialog_new (GTK_WINDOW (self), heading,
                                   _("The project and its run configurations leave the workspace. Its files, here "
                                     "and on the target, are not touched."));
  adw_message_dialog_add_responses (ADW_MESSAGE_DIALOG (dialog), "cancel", _("_Cancel"), "remove", _("_Remove"), NULL);
  adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "remove", ADW_RESPONSE_DESTRUCTIVE);
  adw_message_dialog_set_default_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  adw_message_dialog_set_close_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  g_signal_connect_object (dialog, "response", G_CALLBACK (remove_response_cb), self, 0);
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
folder_chosen_cb (GtkNativeDialog *chooser,
                  int              response,
                  SlProjectDialog *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));
      g_autofree char *path = file ? g_file_get_path (file) : NULL;

      if (path != NULL)
        {
          set_row (self->folder_row, path);
          if (gtk_editable_get_text (GTK_EDITABLE (self->name_row))[0] == '\0')
            {
              g_autofree char *name = g_path_get_basename (path);

              set_row (self->name_row, name);
            }
        }
    }
  gtk_native_dialog_destroy (chooser);
}

static void
choose_folder_cb (SlProjectDialog *self)
{
  if (self->chooser != NULL)
    gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (self->chooser));
  g_clear_object (&self->chooser);

  self->chooser = gtk_file_chooser_native_new (_("Choose the Project Folder"), GTK_WINDOW (self),
                                               GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER, _("_Select"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (self->chooser), TRUE);
  g_signal_connect_object (self->chooser, "response", G_CALLBACK (folder_chosen_cb), self, 0);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->chooser));
}

static void
sl_project_dialog_dispose (GObject *object)
{
  SlProjectDialog *self = (SlProjectDialog *)object;

  if (self->chooser != NULL)
    gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (self->chooser));
  g_clear_object (&self->chooser);
  gtk_widget_dispose_template (GTK_WIDGET (self), SL_TYPE_PROJECT_DIALOG);
  g_clear_pointer (&self->configs, g_ptr_array_unref);
  g_clear_pointer (&self->exclude_rows, g_ptr_array_unref);
  g_clear_pointer (&self->loaded_values, g_free);
  g_clear_pointer (&self->projects, g_ptr_array_unref);
  g_clear_pointer (&self->target_ids, g_array_unref);
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->saving);
  g_clear_object (&self->workspace);

  G_OBJECT_CLASS (sl_project_dialog_parent_class)->dispose (object);
}

static void
sl_project_dialog_class_init (SlProjectDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = sl_project_dialog_dispose;

  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_PREFIX "/ui/sl-project-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, SlProjectDialog, toast_overlay);
  gtk_widget_class_bind_template_child (widget_class, SlProjectDialog, save_button);
  gtk_widget_class_bind_template_child (widget_class, SlProjectDialog, remove_button);
  gtk_widget_class_bind_template_child (widget_class, SlProjectDialog, project_row);
  gtk_widget_class_bind_template_child (widget_class, SlProjectDialog, name_row);
  gtk_widget_class_bind_template_child (widget_class, SlProjectDialog, name_error);
  gtk_widget_class_bind_template_child (widget_class, SlProjectDialog, folder_row);
  gtk_widget_class_bind_template_child (widget_class, SlProjectDialog, folder_error);
  gtk_widget_class_bind_template_child (widget_class, SlProjectDialog, target_row);
  gtk_widget_class_bind_template_child (widget_class, SlProjectDialog, remote_folder_row);
  gtk_widget_class_bind_template_child (widget_class, SlProjectDialog, excludes_group);
  gtk_widget_class_bind_template_child (widget_class, SlProjectDialog, exclude_entry);
  gtk_widget_class_bind_template_child (widget_class, SlProjectDialog, configs_group);
  gtk_widget_class_bind_template_callback (widget_class, validate_cb);
  gtk_widget_class_bind_template_callback (widget_class, project_selected_cb);
  gtk_widget_class_bind_template_callback (widget_class, choose_folder_cb);
  gtk_widget_class_bind_template_callback (widget_class, add_exclude_cb);

  gtk_widget_class_install_action (widget_class, "project.save", NULL, save_action);
  gtk_widget_class_install_action (widget_class, "project.remove", NULL, remove_action);
  gtk_widget_class_install_action (widget_class, "project.add-run-config", NULL, add_run_config_action);
  gtk_widget_class_install_action (widget_class, "project.remove-exclude", "s", remove_exclude_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
sl_project_dialog_init (SlProjectDialog *self)
{
  self->cancellable = g_cancellable_new ();
  self->configs = g_ptr_array_new_with_free_func (config_rows_free);
  self->exclude_rows = g_ptr_array_new ();
  self->target_ids = g_array_new (FALSE, FALSE, sizeof (gint64));
  self->loading = TRUE;
  gtk_widget_init_template (GTK_WIDGET (self));
  sl_dialog_fit_screen (GTK_WINDOW (self));
  self->loading = FALSE;
}

/**
 * sl_project_dialog_new:
 *
 * Returns: (transfer floating): the projects of the workspace, the first
 *   one shown, or a new one when there is none yet
 */
SlProjectDialog *
sl_project_dialog_new (SlWorkspace *workspace)
{
  SlProjectDialog *self;

  g_return_val_if_fail (SL_IS_WORKSPACE (workspace), NULL);

  self = g_object_new (SL_TYPE_PROJECT_DIALOG, NULL);
  self->workspace = g_object_ref (workspace);
  load_targets (self);
  reload_projects (self, -1);
  if (self->projects->len > 0)
    adw_combo_row_set_selected (self->project_row, 1);

  return self;
}

/**
 * sl_project_dialog_select_project:
 * @project_id: a stored project, or 0 for a new one
 *
 * Returns: %TRUE when the project is shown
 */
gboolean
sl_project_dialog_select_project (SlProjectDialog *self,
                                  gint64           project_id)
{
  g_return_val_if_fail (SL_IS_PROJECT_DIALOG (self), FALSE);

  if (project_id == 0)
    {
      adw_combo_row_set_selected (self->project_row, 0);
      return TRUE;
    }
  for (guint i = 0; i < self->projects->len; i++)
    {
      if (sl_project_record_get_id (g_ptr_array_index (self->projects, i)) == project_id)
        {
          adw_combo_row_set_selected (self->project_row, i + 1);
          return TRUE;
        }
    }
  return FALSE;
}

gboolean
sl_project_dialog_get_can_save (SlProjectDialog *self)
{
  g_return_val_if_fail (SL_IS_PROJECT_DIALOG (self), FALSE);

  return self->can_save;
}

guint
sl_project_dialog_get_n_run_configs (SlProjectDialog *self)
{
  g_return_val_if_fail (SL_IS_PROJECT_DIALOG (self), 0);

  return self->configs->len;
}
