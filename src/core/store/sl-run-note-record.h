/* sl-run-note-record.h: what the user wrote about a run: a note and tags
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

#define SL_TYPE_RUN_NOTE_RECORD (sl_run_note_record_get_type ())
G_DECLARE_FINAL_TYPE (SlRunNoteRecord, sl_run_note_record, SL, RUN_NOTE_RECORD, GObject)

SlRunNoteRecord    *sl_run_note_record_new            (const char          *path,
                                                       const char          *note,
                                                       const char * const  *tags,
                                                       gint64               updated_at);
const char         *sl_run_note_record_get_path       (SlRunNoteRecord     *self);
const char         *sl_run_note_record_get_note       (SlRunNoteRecord     *self);
const char * const *sl_run_note_record_get_tags       (SlRunNoteRecord     *self);
gint64              sl_run_note_record_get_updated_at (SlRunNoteRecord     *self);
gboolean            sl_run_note_record_is_empty       (SlRunNoteRecord     *self);

G_END_DECLS
