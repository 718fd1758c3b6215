//! The timeline under the 3D view, operated through egui's accessibility tree (egui_kittest)
//! and the pointer as a user would: transport, loop mode, speed, the time and frame fields,
//! the scrubber and its key ticks.

use crate::common;

use crate::shared::{clip_time, painted};
use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::{By, NodeT, Queryable};
use rigscope::anim::{Channel, ChannelTrack, Clip, Interpolation, Playback, Track};
use rigscope::asset::demo::demo_model;
use rigscope::ui::timeline::{TICK_COLOR, tick_times};
use rigscope::ui::{ViewerState, panel};

fn harness() -> Harness<'static, ViewerState> {
    harness_of_size(1280.0, 800.0)
}

fn harness_of_size(width: f32, height: f32) -> Harness<'static, ViewerState> {
    Harness::builder().with_size(egui::vec2(width, height)).build_ui_state(
        |ui, state: &mut ViewerState| {
            panel::show(ui, state, &Default::default());
        },
        ViewerState::new(demo_model()),
    )
}

/// A numeric field (egui's DragValue) labelled `label`.
fn field(label: &str) -> By<'_> {
    By::new().role(Role::SpinButton).label(label)
}

#[test]
fn the_timeline_shows_the_clip_its_time_and_its_frame() {
    let mut harness = harness();
    // The demo's idle: 3 s keyed every 0.25 s, which falls on whole frames at 24 fps.
    harness.get_by_label("idle");
    harness.get_by_label("/ 3.000 s");
    harness.get_by_label("/ 72 @ 24 fps");
    let pause = harness.get_by_label("Pause").rect();
    assert!(
        harness.get(field("time")).rect().top() < pause.bottom(),
        "one row in a wide window"
    );
    assert!(painted(&harness, "0.000"));
    harness.get_by_label("Pause").click();
    harness.run();
    harness.get(field("time")).set_value_accesskit(1.5);
    harness.run();
    assert!((clip_time(&harness) - 1.5).abs() < 1e-4, "typing a time scrubs there");
    assert!(painted(&harness, "1.500"), "three decimals, always");
    assert!(painted(&harness, "36"), "the frame at 24 fps");
    harness.get(field("frame")).set_value_accesskit(12.0);
    harness.run();
    assert!((clip_time(&harness) - 0.5).abs() < 1e-4, "frame 12 of 24 fps is 0.5 s");
    assert!(painted(&harness, "0.500"));
    // Another clip: its name, length and key rate.
    harness.state_mut().frame.player.select(Some(3));
    harness.run();
    harness.get_by_label("wave");
    harness.get_by_label("/ 1.200 s");
}

#[test]
fn play_pause_and_the_step_buttons_step_one_frame_at_the_key_rate() {
    let mut harness = harness();
    assert!(harness.state().frame.player.playing);
    harness.get_by_label("Pause").click();
    harness.run();
    assert!(!harness.state().frame.player.playing);
    let frame = 1.0 / harness.state().key_rate();
    assert_eq!(frame, 1.0 / 24.0);
    harness.get_by_label("Step >").click();
    harness.run();
    harness.get_by_label("Step >").click();
    harness.run();
    assert!((clip_time(&harness) - 2.0 * frame).abs() < 1e-5);
    harness.get_by_label("< Step").click();
    harness.run();
    assert!((clip_time(&harness) - frame).abs() < 1e-5);
    harness.get_by_label("Play").click();
    harness.run();
    assert!(harness.state().frame.player.playing);
}

#[test]
fn loop_mode_and_speed_are_set_from_the_timeline() {
    let mut harness = harness();
    for (label, mode) in [
        ("Once", Playback::Once),
        ("Ping-pong", Playback::PingPong),
        ("Loop", Playback::Loop),
    ] {
        harness.get_by_label(label).click();
        harness.run();
        assert_eq!(harness.state().frame.player.mode(), mode, "{label}");
    }
    harness.get(field("speed")).set_value_accesskit(-1.5);
    harness.run();
    assert_eq!(harness.state().frame.player.speed, -1.5);
    assert!(painted(&harness, "-1.50"), "two decimals");
}

#[test]
fn dragging_the_scrubber_scrubs() {
    let mut harness = harness();
    harness.get_by_label("Pause").click();
    harness.run();
    let rect = harness
        .get(By::new().role(Role::Slider).label("Timeline scrubber"))
        .rect();
    // The strip keeps 6 points at each end for the first and last ticks.
    let at = |fraction: f32| egui::pos2(rect.left() + 6.0 + fraction * (rect.width() - 12.0), rect.center().y);
    harness.drag_at(at(0.25));
    harness.run();
    assert!((clip_time(&harness) - 0.75).abs() < 0.01, "{}", clip_time(&harness));
    harness.hover_at(at(0.5));
    harness.run();
    assert!((clip_time(&harness) - 1.5).abs() < 0.01, "{}", clip_time(&harness));
    harness.hover_at(at(0.9));
    harness.drop_at(at(0.9));
    harness.run();
    assert!((clip_time(&harness) - 2.7).abs() < 0.01, "{}", clip_time(&harness));
    assert!(
        !harness.state().frame.player.playing,
        "scrubbing leaves playback paused"
    );
}

/// The tick marks the last frame drew on the scrubber.
fn drawn_ticks(harness: &Harness<'static, ViewerState>) -> usize {
    harness
        .output()
        .shapes
        .iter()
        .filter(
            |clipped| matches!(&clipped.shape, egui::Shape::LineSegment { stroke, .. } if stroke.color == TICK_COLOR),
        )
        .count()
}

#[test]
fn the_ticks_are_the_clips_keys_or_the_selected_joints() {
    let mut harness = harness();
    harness.run();
    let state = harness.state();
    let idle = &state.document.model.clips[0];
    // Every channel of idle is keyed at the same 13 times.
    assert_eq!(tick_times(idle, None).len(), 13);
    assert_eq!(drawn_ticks(&harness), 13);

    // Fox's Survey: the ticks are every key time of the clip, once each, in order; a joint's
    // ticks are its channels' keys.
    harness.state_mut().open(&common::gltf("Fox/glTF-Binary/Fox.glb"));
    harness.run();
    let state = harness.state();
    let survey = &state.document.model.clips[0];
    let mut every_key: Vec<f32> = survey
        .channels()
        .iter()
        .flat_map(|c| c.track.times().iter().copied())
        .collect();
    every_key.sort_by(f32::total_cmp);
    every_key.dedup();
    assert_eq!(tick_times(survey, None), every_key);
    assert_eq!(drawn_ticks(&harness), every_key.len());
    let head = state
        .document
        .model
        .skeleton
        .find("b_Head_05")
        .expect("Fox has a head joint");
    let mut head_keys: Vec<f32> = survey
        .channels()
        .iter()
        .filter(|c| c.joint == head)
        .flat_map(|c| c.track.times().iter().copied())
        .collect();
    head_keys.sort_by(f32::total_cmp);
    head_keys.dedup();
    assert!(!head_keys.is_empty());
    assert_eq!(tick_times(survey, Some(head)), head_keys);
    // Fox was exported at 24 fps.
    assert_eq!(survey.key_rate(), 24.0);
    harness.state_mut().inspection.selected = Some(head);
    harness.run();
    assert_eq!(drawn_ticks(&harness), head_keys.len(), "the selected joint's ticks");
}

#[test]
fn the_ticks_of_dense_keys_are_thinned_to_one_every_three_points() {
    // A 10 s clip keyed at 60 fps: 601 keys on a strip of about 950 points would merge into
    // a solid bar.
    let mut harness = harness();
    let times: Vec<f32> = (0..=600).map(|frame| frame as f32 / 60.0).collect();
    let values = times.iter().map(|&t| glam::Vec3::new(t, 0.0, 0.0)).collect();
    let track = Track::new(Interpolation::Linear, times, values).unwrap();
    let clip = Clip::new(
        "sixty".to_owned(),
        vec![Channel {
            joint: 0,
            track: ChannelTrack::Translation(track),
        }],
    );
    harness.state_mut().document.model.clips[0] = clip;
    harness.run();
    assert_eq!(harness.state().key_rate(), 60.0);
    let scrubber = harness.get_by_label("Timeline scrubber").rect();
    let mut xs: Vec<f32> = harness
        .output()
        .shapes
        .iter()
        .filter_map(|clipped| match &clipped.shape {
            egui::Shape::LineSegment { points, stroke } if stroke.color == TICK_COLOR => Some(points[0].x),
            _ => None,
        })
        .collect();
    xs.sort_by(f32::total_cmp);
    // At most one tick every 3 points, and not many fewer.
    let columns = (scrubber.width() / 3.0) as usize;
    assert!(
        (columns / 2..=columns + 1).contains(&xs.len()),
        "{} ticks on a strip of {} points",
        xs.len(),
        scrubber.width()
    );
    assert!(
        xs.windows(2).all(|pair| pair[1] - pair[0] >= 3.0 - 1e-3),
        "at least 3 points apart"
    );
}

/// Where the transport's buttons and the loop modes are.
fn transport_rects(harness: &Harness<'static, ViewerState>) -> Vec<egui::Rect> {
    ["< Step", "Pause", "Step >", "Loop", "Once", "Ping-pong"]
        .map(|label| harness.get_by_label(label).rect())
        .to_vec()
}

#[test]
fn the_transport_stays_put_whatever_the_clip_is_called() {
    // A click aimed at Pause must land on Pause after a clip with a longer name is chosen.
    let long = "Armature|mixamo.com|Layer0|walk_cycle_forward_left_arm_waves";
    assert_eq!(long.chars().count(), 60);
    for (width, height) in [(1280.0, 800.0), (800.0, 500.0)] {
        let mut harness = harness_of_size(width, height);
        let mut rects = Vec::new();
        for name in ["run", long, "run"] {
            let clip = &mut harness.state_mut().document.model.clips[0];
            *clip = Clip::new(name.to_owned(), clip.channels().to_vec());
            harness.run();
            let transport = transport_rects(&harness);
            let shown_name = harness.get_by_label(name).rect();
            assert!(
                shown_name.left() > transport[5].right() && shown_name.right() <= width,
                "{width} wide: the name {name:?} at {shown_name:?}, after the transport, in the window"
            );
            rects.push(transport);
        }
        assert_eq!(rects[0], rects[1], "{width} wide: 3 and 60 characters");
        assert_eq!(rects[1], rects[2], "{width} wide: back to 3");
    }
}

#[test]
fn a_cross_fade_into_a_shorter_clip_runs_its_whole_time_under_the_timeline() {
    // From idle (3 s) at 1.5 s into wave (1.2 s), fading for 1.5 s, with the timeline drawn
    // every frame: it shows wave and wave's time, and never turns idle's later time into a
    // scrub that would end the fade. Paused, the fade runs all the same.
    for playing in [true, false] {
        let mut harness = harness();
        {
            let state = harness.state_mut();
            let clips = state.document.model.clips.clone();
            state.frame.player.scrub(1.5, &clips);
            state.frame.player.playing = playing;
            state.frame.player.fade_time = 1.5;
            state.frame.player.select(Some(3));
        }
        for _ in 0..10 {
            harness.state_mut().advance(0.1);
            harness.run();
        }
        let state = harness.state();
        let fades: Vec<(usize, f32)> = state.frame.player.animator.crossfade.fades().collect();
        assert_eq!(fades.len(), 1, "playing {playing}: still fading at 1.0 s of 1.5 s");
        assert!(
            (fades[0].1 - 1.0 / 1.5).abs() < 1e-3,
            "playing {playing}: weight {}",
            fades[0].1
        );
        harness.get_by_label("wave");
        // On the track, the clip it leaves, that clip's time, and the blend.
        let from_idle = if playing {
            "from idle 2.500 s, 67%"
        } else {
            "from idle 1.500 s, 67%"
        };
        assert!(
            painted(&harness, from_idle),
            "playing {playing}: {from_idle} on the track"
        );
        let expected = if playing { 1.0 } else { 0.0 };
        assert!(
            (clip_time(&harness) - expected).abs() < 1e-3,
            "playing {playing}: the timeline shows wave's time"
        );
    }
}

#[test]
fn play_starts_a_finished_once_clip_again() {
    // As in Blender and Maya: at the end of a Once clip the button offers Play, and playing
    // starts the clip again from its start.
    let mut harness = harness();
    harness.get_by_label("Once").click();
    harness.run();
    harness.state_mut().advance(3.5);
    harness.run();
    let state = harness.state();
    assert!(
        state.frame.player.playing && state.frame.player.finished(&state.document.model.clips),
        "idle (3 s) played out"
    );
    harness.get_by_label("Play").click();
    harness.run();
    assert!(harness.state().frame.player.playing);
    assert!(clip_time(&harness) < 1e-6, "from its start");
    harness.get_by_label("Pause");
}

/// The glyphs egui painted for the text `text` in the last frame.
fn painted_glyphs(harness: &Harness<'static, ViewerState>, text: &str) -> Vec<egui::epaint::text::Glyph> {
    let output = harness.output();
    let galley = output
        .shapes
        .iter()
        .find_map(|clipped| match &clipped.shape {
            egui::Shape::Text(shape) if shape.galley.text() == text => Some(shape.galley.clone()),
            _ => None,
        })
        .unwrap_or_else(|| panic!("{text:?} was not painted"));
    galley.rows.iter().flat_map(|row| row.glyphs.iter().cloned()).collect()
}

#[test]
fn a_clip_named_in_chinese_is_drawn_with_real_glyphs() {
    // The demo's idle renamed "待机动作" (idle motion): four characters egui's own fonts lack.
    let name = "待机动作";
    let mut model = demo_model();
    model.clips[0] = Clip::new(name.to_owned(), model.clips[0].channels().to_vec());
    // egui_kittest fails a test whose text needs a glyph no font has.
    let harness = Harness::builder()
        .with_size(egui::vec2(1280.0, 800.0))
        .with_context_setup(rigscope::ui::system_fonts::install)
        .build_ui_state(
            |ui, state: &mut ViewerState| {
                panel::show(ui, state, &Default::default());
            },
            ViewerState::new(model),
        );
    let discovered = harness.ctx.fonts(|fonts| fonts.discovered_fonts().to_vec());
    assert!(!discovered.is_empty(), "a system font was found for the Chinese name");
    // Without a font for them every character would be the one replacement glyph ("tofu"),
    // the same picture four times: real glyphs are four different pictures, with ink.
    let glyphs = painted_glyphs(&harness, name);
    assert_eq!(glyphs.iter().map(|g| g.chr).collect::<String>(), name);
    let pictures: std::collections::HashSet<_> = glyphs.iter().map(|g| (g.uv_rect.min, g.uv_rect.max)).collect();
    assert_eq!(pictures.len(), 4, "four characters, four glyph pictures: {glyphs:?}");
    assert!(
        glyphs.iter().all(|g| g.uv_rect.max[0] > g.uv_rect.min[0]),
        "each glyph has ink"
    );
}

#[test]
fn in_an_800_by_500_window_the_timeline_stays_inside_the_view() {
    let mut harness = harness_of_size(800.0, 500.0);
    let window = egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(800.0, 500.0));
    for label in ["speed", "time", "frame"] {
        let rect = harness.get(field(label)).rect();
        assert!(
            window.contains_rect(rect),
            "the {label} field at {rect:?} is outside the window"
        );
    }
    for label in ["Pause", "Step >", "Ping-pong"] {
        let rect = harness.get_by_label(label).rect();
        assert!(window.contains_rect(rect), "{label} at {rect:?} is outside the window");
    }
    let pause = harness.get_by_label("Pause").rect();
    assert!(
        harness.get(field("time")).rect().top() > pause.bottom(),
        "the time fields on a second row"
    );
    let scrubber = harness.get_by_label("Timeline scrubber").rect();
    assert!(
        window.contains_rect(scrubber),
        "the scrubber at {scrubber:?} runs past the window"
    );
    // Its right end is the clip's end: pressing there scrubs to the last instant.
    harness.get_by_label("Pause").click();
    harness.run();
    let end = egui::pos2(scrubber.right() - 1.0, scrubber.center().y);
    harness.hover_at(end);
    harness.event(egui::Event::PointerButton {
        pos: end,
        button: egui::PointerButton::Primary,
        pressed: true,
        modifiers: egui::Modifiers::NONE,
    });
    harness.run();
    assert!(
        (clip_time(&harness) - 3.0).abs() < 1e-3,
        "the right end is idle's 3 s: {}",
        clip_time(&harness)
    );
}

#[test]
fn without_a_clip_the_transport_is_disabled() {
    let mut model = demo_model();
    model.clips.clear();
    let harness = Harness::builder().with_size(egui::vec2(1280.0, 800.0)).build_ui_state(
        |ui, state: &mut ViewerState| {
            panel::show(ui, state, &Default::default());
        },
        ViewerState::new(model),
    );
    for label in ["< Step", "Play", "Step >", "Loop", "Once", "Ping-pong"] {
        let node = harness.get_by_label(label);
        assert!(
            node.accesskit_node().is_disabled(),
            "{label} is enabled over an empty track"
        );
    }
}
