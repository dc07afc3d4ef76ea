/* sl-comm-packet-chart.h: a communication op's transfers by size, per link type
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "sl-communication.h"

G_BEGIN_DECLS

#define SL_TYPE_COMM_PACKET_CHART (sl_comm_packet_chart_get_type ())
G_DECLARE_FINAL_TYPE (SlCommPacketChart, sl_comm_packet_chart, SL, COMM_PACKET_CHART, GtkWidget)

GtkWidget *sl_comm_packet_chart_new          (void);
/* @op: (nullable): copied; the chart keeps no pointer into it */
void       sl_comm_packet_chart_set_op       (SlCommPacketChart *self,
                                              const SlCommOp    *op);
guint      sl_comm_packet_chart_get_n_bars   (SlCommPacketChart *self);
/* Returns: (transfer full) (nullable): what the bar at @x, @y stands for */
char      *sl_comm_packet_chart_describe_at  (SlCommPacketChart *self,
                                              double             x,
                                              double             y);

G_END_DECLS
