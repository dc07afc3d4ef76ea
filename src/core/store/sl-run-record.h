/* sl-run-record.h: a run found in an opened folder, kept in the run index
 *
 * The run index lets the Workspace tree appear at once on the next start
 * and lets readers go on from where they stopped: each file remembers how
 * many bytes of it were read so far.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

#define SL_TYPE_RUN_RECORD (sl_run_record_get_type ())
G_DECLARE_FINAL_TYPE (SlRunRecord, sl_run_record, SL, RUN_RECORD, GObject)

SlRunRecord        *sl_run_record_new               (const char         *root_folder,
                                                     const char         *kind_id,
                                                     const char         *relative_name,
                                                     const char         *path);
gint64              sl_run_record_get_id            (SlRunRecord        *self);
void                sl_run_record_set_id            (SlRunRecord        *self,
                                                     gint64              id);
const char         *sl_run_record_get_root_folder   (SlRunRecord        *self);
const char         *sl_run_record_get_kind_id       (SlRunRecord        *self);
const char         *sl_run_record_get_relative_name (SlRunRecord        *self);
const char         *sl_run_record_get_path          (SlRunRecord        *self);
const char * const *sl_run_record_get_tags          (SlRunRecord        *self);
void                sl_run_record_set_tags          (SlRunRecord        *self,
                                                     const char * const *tags);
const char * const *sl_run_record_get_details       (SlRunRecord        *self);
void                sl_run_record_set_details       (SlRunRecord        *self,
                                                     const char * const *details);
gint64              sl_run_record_get_last_seen     (SlRunRecord        *self);
void                sl_run_record_set_last_seen     (SlRunRecord        *self,
                                                     gint64              last_seen);
void                sl_run_record_set_file          (SlRunRecord        *self,
                                                     const char         *path,
                                                     guint64             size,
                                                     guint64             read_offset);
guint               sl_run_record_get_n_files       (SlRunRecord        *self);
gboolean            sl_run_record_get_file          (SlRunRecord        *self,
                                                     guint               index,
                                                     const char        **path,
                                                     guint64            *size,
                                                     guint64            *read_offset);
gboolean            sl_run_record_lookup_file       (SlRunRecord        *self,
                                                     const char         *path,
                                                     guint64            *size,
                                                     guint64            *read_offset);

G_END_DECLS
