/* sl-atc-command.h: an ATC model conversion, checked field by field before it runs
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

/* The numbers are ATC's own --framework codes. */
typedef enum {
  SL_ATC_FRAMEWORK_NONE       = -1,
  SL_ATC_FRAMEWORK_CAFFE      = 0,
  SL_ATC_FRAMEWORK_MINDSPORE  = 1,
  SL_ATC_FRAMEWORK_TENSORFLOW = 3,
  SL_ATC_FRAMEWORK_ONNX       = 5,
} SlAtcFramework;

#define SL_TYPE_ATC_COMMAND (sl_atc_command_get_type ())
G_DECLARE_FINAL_TYPE (SlAtcCommand, sl_atc_command, SL, ATC_COMMAND, GObject)

SlAtcCommand       *sl_atc_command_new                (void);
SlAtcCommand       *sl_atc_command_copy               (SlAtcCommand   *self);
void                sl_atc_command_set_framework      (SlAtcCommand   *self,
                                                       SlAtcFramework  framework);
SlAtcFramework      sl_atc_command_get_framework      (SlAtcCommand   *self);
void                sl_atc_command_set_model          (SlAtcCommand   *self,
                                                       const char     *path);
void                sl_atc_command_set_weight         (SlAtcCommand   *self,
                                                       const char     *path);
void                sl_atc_command_set_output         (SlAtcCommand   *self,
                                                       const char     *name);
void                sl_atc_command_set_input_format   (SlAtcCommand   *self,
                                                       const char     *format);
void                sl_atc_command_set_input_shape    (SlAtcCommand   *self,
                                                       const char     *shape);
void                sl_atc_command_set_soc_version    (SlAtcCommand   *self,
                                                       const char     *version);
void                sl_atc_command_set_insert_op_conf (SlAtcCommand   *self,
                                                       const char     *path);
void                sl_atc_command_set_precision_mode (SlAtcCommand   *self,
                                                       const char     *mode);
void                sl_atc_command_set_log_level      (SlAtcCommand   *self,
                                                       const char     *level);
/* The files ATC reads and the output name, as set (or %NULL). */
const char         *sl_atc_command_get_model          (SlAtcCommand   *self);
const char         *sl_atc_command_get_weight         (SlAtcCommand   *self);
const char         *sl_atc_command_get_output         (SlAtcCommand   *self);
const char         *sl_atc_command_get_insert_op_conf (SlAtcCommand   *self);

/* Every field's problems (SlProblem, errors and warnings), each with the
 * option it concerns as its subject; empty when all is well. */
GPtrArray          *sl_atc_command_validate           (SlAtcCommand   *self);
/* The argv, or %NULL with @error set from the first error of validate. */
GStrv               sl_atc_command_dup_argv           (SlAtcCommand   *self,
                                                       GError        **error);
/* Where the .om file will be: the output name with ".om" added. */
char               *sl_atc_command_dup_om_path        (SlAtcCommand   *self);

gboolean            sl_atc_framework_from_name        (const char     *name,
                                                       SlAtcFramework *framework);
const char         *sl_atc_framework_get_label        (SlAtcFramework  framework);
const char * const *sl_atc_precision_modes            (void);
const char * const *sl_atc_log_levels                 (void);
const char * const *sl_atc_input_formats              (SlAtcFramework  framework);
/* A shape list as --input_shape takes it: "name:n,c,h,w;name2:…", with -1
 * for a dynamic dimension and "a~b" for a range. */
gboolean            sl_atc_check_input_shape          (const char     *shape,
                                                       GError        **error);

G_END_DECLS
