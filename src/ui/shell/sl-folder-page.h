/* sl-folder-page.h: the document showing what an opened folder holds
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "sl-document.h"

#include "sl-folder.h"

G_BEGIN_DECLS

#define SL_TYPE_FOLDER_PAGE (sl_folder_page_get_type ())
G_DECLARE_FINAL_TYPE (SlFolderPage, sl_folder_page, SL, FOLDER_PAGE, SlDocument)

SlFolder   *sl_folder_page_get_folder   (SlFolderPage *self);
void        sl_folder_page_set_folder   (SlFolderPage *self,
                                         SlFolder     *folder);

G_END_DECLS
