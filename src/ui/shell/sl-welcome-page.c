/* sl-welcome-page.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <adwaita.h>

#include "sl-welcome-page.h"

struct _SlWelcomePage
{
  GtkWidget parent_instance;
};

G_DEFINE_FINAL_TYPE (SlWelcomePage, sl_welcome_page, GTK_TYPE_WIDGET)

static void
sl_welcome_page_dispose (GObject *object)
{
  gtk_widget_dispose_template (GTK_WIDGET (object), SL_TYPE_WELCOME_PAGE);

  G_OBJECT_CLASS (sl_welcome_page_parent_class)->dispose (object);
}

static void
sl_welcome_page_class_init (SlWelcomePageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = sl_welcome_page_dispose;

  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_PREFIX "/ui/sl-welcome-page.ui");
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
}

static void
sl_welcome_page_init (SlWelcomePage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

GtkWidget *
sl_welcome_page_new (void)
{
  return g_object_new (SL_TYPE_WELCOME_PAGE, NULL);
}
