/* sl-transfer.h: what uploads and pulls share, and their rules
 *
 * The rules are pure functions, so they are tested without a server:
 * which files an upload leaves out, whether a file needs sending again,
 * what a pull does with a file that grew, and where a remote folder is
 * mirrored in the local cache.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

typedef struct {
  guint64      files_total;
  guint64      files_done;
  guint64      bytes_total;
  guint64      bytes_done;
  double       bytes_per_second;
  double       seconds_left;       /* < 0 while not known yet */
  const char  *current;            /* relative path being transferred */
} SlTransferProgress;

typedef void (*SlTransferProgressFunc) (const SlTransferProgress *progress,
                                        gpointer                  user_data);

typedef enum {
  SL_PULL_SKIP,     /* the local copy is up to date */
  SL_PULL_APPEND,   /* the remote file grew: fetch its new bytes, if the start is unchanged */
  SL_PULL_FULL,     /* fetch the whole file */
} SlPullAction;

#define SL_PULL_PREFIX_CHECK_BYTES 4096

const char * const *sl_transfer_default_excludes   (void);
gboolean      sl_transfer_is_excluded        (const char * const *patterns,
                                              const char         *relative_path);
gboolean      sl_transfer_is_unchanged       (guint64             source_size,
                                              guint64             source_mtime,
                                              guint64             destination_size,
                                              guint64             destination_mtime);
SlPullAction  sl_transfer_decide_pull        (gboolean            local_exists,
                                              guint64             local_size,
                                              guint64             local_mtime,
                                              guint64             remote_size,
                                              guint64             remote_mtime);
char         *sl_transfer_dup_cache_dir      (const char         *cache_dir,
                                              const char         *target_name,
                                              const char         *remote_path,
                                              GError            **error);
char         *sl_transfer_join_checked       (const char         *folder,
                                              const char         *relative_path,
                                              GError            **error);

/* Rate and time left, smoothed over the transfer so far. */
typedef struct {
  SlTransferProgress  progress;
  gint64              started;
  gint64              last_report;
} SlTransferMeter;

void          sl_transfer_meter_start        (SlTransferMeter    *meter,
                                              guint64             files_total,
                                              guint64             bytes_total);
void          sl_transfer_meter_report       (SlTransferMeter        *meter,
                                              gboolean                force,
                                              SlTransferProgressFunc  func,
                                              gpointer                user_data);

G_END_DECLS
