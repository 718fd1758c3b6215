//! The notice bar over the 3D view: what the user just asked for came out as it did, shown
//! where they look rather than in a panel section that may be scrolled away. A file that holds
//! clips waits there for its answer ("Add its clips" or "Open it instead"); otherwise the last
//! `Notice` stays until it is dismissed or a newer one replaces it.

use egui::RichText;

use super::clips_from::OfferAnswer;
use super::state::ViewerState;

/// The widest the bar grows (points), so that a long message wraps into lines one can read.
const MOST_WIDTH: f32 = 640.0;

/// Draws the bar at the top of `view` (the 3D view's area, in points) when there is something
/// to say, and carries out the answer to an offer.
pub fn show(ctx: &egui::Context, state: &mut ViewerState, view: egui::Rect) {
    if state.clips_from.offer.is_none() && state.notice.is_none() {
        return;
    }
    let width = (view.width() - 24.0).clamp(120.0, MOST_WIDTH);
    let mut answer = None;
    let mut dismissed = false;
    egui::Area::new(egui::Id::unique("rigscope notice"))
        .fixed_pos(egui::pos2(view.center().x - width * 0.5, view.top() + 8.0))
        .order(egui::Order::Foreground)
        .show(ctx, |ui| {
            egui::Frame::popup(ui.style()).show(ui, |ui| {
                ui.set_width(width);
                if state.clips_from.offer.is_some() {
                    answer = state.clips_from.offer_prompt(ui);
                } else if let Some(notice) = &state.notice {
                    ui.horizontal(|ui| {
                        dismissed = ui.button("×").on_hover_text("Dismiss").clicked();
                        ui.add(egui::Label::new(RichText::new(&notice.text).color(notice.color())).wrap());
                    });
                }
            });
        });
    match answer {
        Some(OfferAnswer::AddClips) => state.add_offered_clips(),
        Some(OfferAnswer::OpenInstead) => state.open_offered_instead(),
        None => {}
    }
    if dismissed {
        state.notice = None;
    }
}
