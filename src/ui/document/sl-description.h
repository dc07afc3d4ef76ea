/* sl-description.h: what a document says of its selection: a title, and
 * rows of text, links and editable values, for the Details panel to show
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

typedef enum {
  SL_DESCRIPTION_ROW_TEXT,
  SL_DESCRIPTION_ROW_LINK,
  SL_DESCRIPTION_ROW_EDIT,
} SlDescriptionRowKind;

/* Called with the object the link was made for, while it lives. */
typedef void (*SlDescriptionLinkFunc) (GObject    *object,
                                       guint64     target);
/* Called with the object the row was made for and the text entered. */
typedef void (*SlDescriptionEditFunc) (GObject    *object,
                                       const char *key,
                                       const char *text);

#define SL_TYPE_DESCRIPTION (sl_description_get_type ())
G_DECLARE_FINAL_TYPE (SlDescription, sl_description, SL, DESCRIPTION, GObject)

SlDescription        *sl_description_new              (void);
void                  sl_description_show_rows        (SlDescription         *self,
                                                       GObject               *item,
                                                       const char            *icon_name,
                                                       const char            *title,
                                                       const char * const    *rows);
void                  sl_description_add_rows         (SlDescription         *self,
                                                       const char * const    *rows);
void                  sl_description_add_object_link  (SlDescription         *self,
                                                       const char            *key,
                                                       const char            *value,
                                                       GObject               *object,
                                                       SlDescriptionLinkFunc  func,
                                                       guint64                target);
void                  sl_description_add_edit_row     (SlDescription         *self,
                                                       const char            *key,
                                                       const char            *text,
                                                       const char            *placeholder,
                                                       const char            *tooltip,
                                                       GObject               *object,
                                                       SlDescriptionEditFunc  func);
GObject              *sl_description_get_item         (SlDescription         *self);
const char           *sl_description_get_icon_name    (SlDescription         *self);
const char           *sl_description_get_title        (SlDescription         *self);
guint                 sl_description_get_n_rows       (SlDescription         *self);
SlDescriptionRowKind  sl_description_get_row_kind     (SlDescription         *self,
                                                       guint                  row);
const char           *sl_description_get_row_key      (SlDescription         *self,
                                                       guint                  row);
const char           *sl_description_get_row_value    (SlDescription         *self,
                                                       guint                  row);
const char           *sl_description_get_row_placeholder (SlDescription      *self,
                                                          guint               row);
const char           *sl_description_get_row_tooltip  (SlDescription         *self,
                                                       guint                  row);
const char           *sl_description_lookup           (SlDescription         *self,
                                                       const char            *key);
void                  sl_description_activate_row     (SlDescription         *self,
                                                       guint                  row);
void                  sl_description_edit_row         (SlDescription         *self,
                                                       guint                  row,
                                                       const char            *text);

G_END_DECLS
