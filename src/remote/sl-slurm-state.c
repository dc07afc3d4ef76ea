/* sl-slurm-state.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <glib/gi18n-lib.h>

#include "sl-slurm-state.h"

/* Longer than any state word or reason Slurm prints; longer text is not
 * Slurm talking. */
#define MAX_WORD 256

typedef struct {
  const char *state;
  SlJobStatus status;
} StateEntry;

/* Slurm's job states (squeue %T, sacct State, scontrol JobState). */
static const StateEntry states[] = {
  { "PENDING", SL_JOB_STATUS_STARTING },
  { "CONFIGURING", SL_JOB_STATUS_STARTING },
  { "REQUEUED", SL_JOB_STATUS_STARTING },
  { "REQUEUE_HOLD", SL_JOB_STATUS_STARTING },
  { "REQUEUE_FED", SL_JOB_STATUS_STARTING },
  { "RESV_DEL_HOLD", SL_JOB_STATUS_STARTING },
  { "RUNNING", SL_JOB_STATUS_RUNNING },
  { "COMPLETING", SL_JOB_STATUS_RUNNING },
  { "SUSPENDED", SL_JOB_STATUS_RUNNING },
  { "STOPPED", SL_JOB_STATUS_RUNNING },
  { "SIGNALING", SL_JOB_STATUS_RUNNING },
  { "STAGE_OUT", SL_JOB_STATUS_RUNNING },
  { "RESIZING", SL_JOB_STATUS_RUNNING },
  { "COMPLETED", SL_JOB_STATUS_EXITED },
  { "FAILED", SL_JOB_STATUS_EXITED },
  { "CANCELLED", SL_JOB_STATUS_EXITED },
  { "TIMEOUT", SL_JOB_STATUS_EXITED },
  { "NODE_FAIL", SL_JOB_STATUS_EXITED },
  { "OUT_OF_MEMORY", SL_JOB_STATUS_EXITED },
  { "PREEMPTED", SL_JOB_STATUS_EXITED },
  { "BOOT_FAIL", SL_JOB_STATUS_EXITED },
  { "DEADLINE", SL_JOB_STATUS_EXITED },
  { "REVOKED", SL_JOB_STATUS_EXITED },
  { "SPECIAL_EXIT", SL_JOB_STATUS_EXITED },
};

typedef struct {
  const char *reason;
  const char *words;
  gboolean    ends;     /* why a job ended, not why it waits */
} ReasonEntry;

static const ReasonEntry reasons[] = {
  { "Resources", N_("waiting for the nodes it asked for to become free") },
  { "Priority", N_("other jobs of higher priority are ahead of it in the queue") },
  { "Dependency", N_("waiting for the jobs it depends on to end") },
  { "DependencyNeverSatisfied", N_("the jobs it depends on ended in a way that can never satisfy it; cancel it") },
  { "BeginTime", N_("its start time has not come yet") },
  { "ReqNodeNotAvail", N_("a node it asked for is not available (down, drained or reserved)") },
  { "NodeDown", N_("a node it needs is down") },
  { "PartitionDown", N_("its partition is down") },
  { "PartitionInactive", N_("its partition is not accepting jobs") },
  { "PartitionNodeLimit", N_("it asks for more nodes than its partition allows") },
  { "PartitionTimeLimit", N_("its time limit is longer than its partition allows") },
  { "QOSMaxJobsPerUserLimit", N_("you already have as many jobs running as your QOS allows") },
  { "QOSMaxSubmitJobPerUserLimit", N_("you already have as many jobs queued as your QOS allows") },
  { "QOSMaxNodePerUserLimit", N_("your jobs already use as many nodes as your QOS allows") },
  { "QOSMaxCpuPerUserLimit", N_("your jobs already use as many CPUs as your QOS allows") },
  { "QOSMaxGRESPerUser", N_("your jobs already use as many devices as your QOS allows") },
  { "AssocMaxJobsLimit", N_("your account already has as many jobs running as it may") },
  { "AssocGrpCpuLimit", N_("your account's group already uses as many CPUs as it may") },
  { "AssocGrpNodeLimit", N_("your account's group already uses as many nodes as it may") },
  { "JobHeldUser", N_("held by its owner; release it with scontrol release") },
  { "JobHeldAdmin", N_("held by an administrator") },
  { "Reservation", N_("waiting for its reservation to start") },
  { "Licenses", N_("waiting for licenses") },
  { "BadConstraints", N_("no node can satisfy its constraints") },
  { "InvalidAccount", N_("its account is not valid") },
  { "InvalidQOS", N_("its QOS is not valid") },
  { "launch failed requeued held", N_("its launch failed; it is held for an administrator") },
  { "Cleaning", N_("Slurm is still cleaning up after its last run") },
  { "Prolog", N_("the node's prolog is running") },
  { "BurstBufferResources", N_("waiting for burst buffer space") },
  { "NonZeroExitCode", N_("it exited with an error"), TRUE },
  { "TimeLimit", N_("it reached its time limit"), TRUE },
  { "InactiveLimit", N_("it was inactive too long"), TRUE },
};

void
sl_slurm_job_info_clear (SlSlurmJobInfo *info)
{
  g_clear_pointer (&info->state, g_free);
  g_clear_pointer (&info->reason, g_free);
  info->exit_code = -1;
  info->signal = 0;
}

static gboolean
is_state_word (const char *word,
               gsize       length)
{
  if (length == 0 || length > MAX_WORD)
    return FALSE;
  for (gsize i = 0; i < length; i++)
    if (!g_ascii_isupper (word[i]) && word[i] != '_')
      return FALSE;
  return TRUE;
}

static void
set_state (SlSlurmJobInfo *info,
           const char     *word,
           gsize           length)
{
  g_free (info->state);
  info->state = g_strndup (word, length);
}

/* Reasons are printable words, and "None" means there is none. */
static void
set_reason (SlSlurmJobInfo *info,
            const char     *text,
            gsize           length)
{
  g_autofree char *reason = g_strstrip (g_strndup (text, MIN (length, MAX_WORD)));

  g_clear_pointer (&info->reason, g_free);
  for (char *p = reason; *p; p++)
    if (!g_ascii_isprint (*p))
      *p = '?';
  if (reason[0] != '\0' && !g_str_equal (reason, "None") && !g_str_equal (reason, "(null)"))
    info->reason = g_steal_pointer (&reason);
}

/**
 * sl_slurm_parse_exit_code:
 * @text: Slurm's "CODE:SIGNAL", such as "0:0" or "1:0" or "0:15"
 *
 * Returns: %TRUE when @text was one
 */
gboolean
sl_slurm_parse_exit_code (const char *text,
                          int        *exit_code,
                          int        *signal)
{
  char *end = NULL;
  guint64 code, sig;

  g_return_val_if_fail (exit_code != NULL && signal != NULL, FALSE);

  if (text == NULL || !g_ascii_isdigit (text[0]))
    return FALSE;
  code = g_ascii_strtoull (text, &end, 10);
  if (*end != ':' || !g_ascii_isdigit (end[1]) || code > 255)
    return FALSE;
  sig = g_ascii_strtoull (end + 1, &end, 10);
  if ((*end != '\0' && !g_ascii_isspace (*end)) || sig > 255)
    return FALSE;
  *exit_code = (int)code;
  *signal = (int)sig;
  return TRUE;
}

/**
 * sl_slurm_parse_squeue_line:
 * @line: a line of `squeue -h -o '%T %r'`: "PENDING Resources"
 *
 * Returns: %TRUE when @line held a state word
 */
gboolean
sl_slurm_parse_squeue_line (const char     *line,
                            SlSlurmJobInfo *info)
{
  gsize length;

  g_return_val_if_fail (info != NULL, FALSE);

  if (line == NULL)
    return FALSE;
  while (g_ascii_isspace (*line))
    line++;
  length = strcspn (line, " \t\r\n");
  if (!is_state_word (line, length))
    return FALSE;
  set_state (info, line, length);
  set_reason (info, line + length, strcspn (line + length, "\r\n"));
  return TRUE;
}

/**
 * sl_slurm_parse_sacct_line:
 * @line: a line of `sacct -n -P -X -o State,ExitCode`:
 *   "COMPLETED|0:0", "CANCELLED by 1000|0:15"
 *
 * Returns: %TRUE when @line held a state word and an exit code
 */
gboolean
sl_slurm_parse_sacct_line (const char     *line,
                           SlSlurmJobInfo *info)
{
  const char *bar;
  gsize length;
  int code = -1, sig = 0;

  g_return_val_if_fail (info != NULL, FALSE);

  if (line == NULL || (bar = strchr (line, '|')) == NULL)
    return FALSE;
  length = strcspn (line, " |");
  if (!is_state_word (line, length) || !sl_slurm_parse_exit_code (bar + 1, &code, &sig))
    return FALSE;
  set_state (info, line, length);
  info->exit_code = code;
  info->signal = sig;
  return TRUE;
}

/* The value of KEY= in scontrol's "Key=Value Key=Value" text, up to the
 * next white space; the key must start a word. */
static const char *
find_field (const char *text,
            const char *key,
            gsize      *length)
{
  gsize key_length = strlen (key);

  for (const char *p = text; (p = strstr (p, key)) != NULL; p += key_length)
    {
      if (p != text && !g_ascii_isspace (p[-1]))
        continue;
      if (p[key_length] != '=')
        continue;
      *length = strcspn (p + key_length + 1, " \t\r\n");
      return p + key_length + 1;
    }
  return NULL;
}

/**
 * sl_slurm_parse_scontrol:
 * @text: the output of `scontrol show job -o ID`
 *
 * Returns: %TRUE when @text held a JobState
 */
gboolean
sl_slurm_parse_scontrol (const char     *text,
                         SlSlurmJobInfo *info)
{
  const char *value;
  gsize length = 0;

  g_return_val_if_fail (info != NULL, FALSE);

  if (text == NULL || (value = find_field (text, "JobState", &length)) == NULL || !is_state_word (value, length))
    return FALSE;
  set_state (info, value, length);

  if ((value = find_field (text, "Reason", &length)) != NULL)
    {
      g_autofree char *reason = g_strndup (value, MIN (length, MAX_WORD));

      /* scontrol writes the spaces of a reason as underscores only
       * sometimes; "ReqNodeNotAvail,_UnavailableNodes:n1" reads better
       * with them back. */
      g_strdelimit (reason, "_", ' ');
      set_reason (info, reason, strlen (reason));
    }
  if ((value = find_field (text, "ExitCode", &length)) != NULL)
    {
      g_autofree char *code = g_strndup (value, MIN (length, 16));
      int exit_code, sig;

      if (sl_slurm_parse_exit_code (code, &exit_code, &sig))
        {
          info->exit_code = exit_code;
          info->signal = sig;
        }
    }
  return TRUE;
}

/**
 * sl_slurm_parse_job_id:
 * @sbatch_output: what `sbatch --parsable` printed: "ID" or
 *   "ID;CLUSTER"; or sbatch's "Submitted batch job ID"
 *
 * Returns: (transfer full) (nullable): the job id
 */
char *
sl_slurm_parse_job_id (const char *sbatch_output)
{
  const char *start;
  gsize length;

  if (sbatch_output == NULL)
    return NULL;

  start = sbatch_output;
  if ((start = strstr (sbatch_output, "Submitted batch job ")) != NULL)
    start += strlen ("Submitted batch job ");
  else
    start = sbatch_output;
  while (g_ascii_isspace (*start))
    start++;

  length = strspn (start, "0123456789");
  if (length == 0 || length > 20 || (start[length] != '\0' && start[length] != ';' && !g_ascii_isspace (start[length])))
    return NULL;
  return g_strndup (start, length);
}

static const StateEntry *
find_state (const char *state)
{
  if (state == NULL)
    return NULL;
  for (guint i = 0; i < G_N_ELEMENTS (states); i++)
    if (g_str_equal (states[i].state, state))
      return &states[i];
  return NULL;
}

gboolean
sl_slurm_state_is_known (const char *state)
{
  return find_state (state) != NULL;
}

/**
 * sl_slurm_state_to_status:
 *
 * Returns: the backend status for a Slurm state word; an unknown word
 *   counts as still running, so a newer Slurm's states are followed on
 */
SlJobStatus
sl_slurm_state_to_status (const char *state)
{
  const StateEntry *entry = find_state (state);

  if (state == NULL)
    return SL_JOB_STATUS_LOST;
  return entry != NULL ? entry->status : SL_JOB_STATUS_RUNNING;
}

/**
 * sl_slurm_job_info_get_exit:
 *
 * Returns: the exit code a shell would report for the ended job: its
 *   own code, 128 + the signal that ended it, or 1 for a job Slurm ended
 *   without either (TIMEOUT, NODE_FAIL and the like)
 */
int
sl_slurm_job_info_get_exit (const SlSlurmJobInfo *info)
{
  g_return_val_if_fail (info != NULL, 1);

  if (info->exit_code > 0)
    return info->exit_code;
  if (info->signal > 0)
    return 128 + info->signal;
  if (info->exit_code == 0 && g_strcmp0 (info->state, "COMPLETED") == 0)
    return 0;
  if (g_strcmp0 (info->state, "CANCELLED") == 0)
    return 128 + 15;
  return 1;
}

/**
 * sl_slurm_describe_reason:
 * @reason: Slurm's reason, such as "Resources" or
 *   "ReqNodeNotAvail, UnavailableNodes:n1"
 *
 * Returns: (nullable): the reason in words, or %NULL for one not known
 */
static const ReasonEntry *
find_reason (const char *reason)
{
  gsize length;

  if (reason == NULL)
    return NULL;
  length = strcspn (reason, ",(");
  for (guint i = 0; i < G_N_ELEMENTS (reasons); i++)
    if (strlen (reasons[i].reason) == length && strncmp (reasons[i].reason, reason, length) == 0)
      return &reasons[i];
  return NULL;
}

const char *
sl_slurm_describe_reason (const char *reason)
{
  const ReasonEntry *entry = find_reason (reason);

  return entry != NULL ? _(entry->words) : NULL;
}

/**
 * sl_slurm_describe_state:
 *
 * Returns: (transfer full): the state word with its reason in words:
 *   "PENDING: waiting for the nodes it asked for to become free (Resources)";
 *   a reason for waiting is left out once the job no longer waits
 */
char *
sl_slurm_describe_state (const char *state,
                         const char *reason)
{
  const ReasonEntry *entry = find_reason (reason);
  const char *words = entry != NULL ? _(entry->words) : NULL;

  if (state == NULL)
    return g_strdup (_("unknown"));
  /* A job cancelled while it waited still carries why it waited. */
  if (entry != NULL && !entry->ends && !g_str_equal (state, "PENDING"))
    return g_strdup (state);
  if (reason == NULL)
    return g_strdup (state);
  if (words == NULL)
    return g_strdup_printf ("%s (%s)", state, reason);
  /* TRANSLATORS: a Slurm job state, why it is in that state, and Slurm's own word for why */
  return g_strdup_printf (_("%s: %s (%s)"), state, words, reason);
}
