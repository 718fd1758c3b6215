//! The wgpu device: found once, for a window or headless.

use std::path::Path;

use super::error::RenderError;

/// Adapter, device and queue.
pub struct Gpu {
    pub adapter: wgpu::Adapter,
    pub device: wgpu::Device,
    pub queue: wgpu::Queue,
    /// Why this adapter, of those the machine has (for the panel and the benchmarks).
    pub choice: String,
    /// The longest side a model's textures are uploaded at: the device's limit (the window
    /// zooms in), lowered by `fit_textures_to` for a picture that cannot show more.
    pub texture_side: u32,
}

impl Gpu {
    /// A device without a window (offscreen rendering). `WGPU_BACKEND` (e.g. `gl`) picks the
    /// backend; on machines without a GPU, Mesa's llvmpipe serves through the GL backend.
    /// Where no GPU can be reached (`gpu_device_present`), OpenGL alone is asked first: the
    /// adapter it gives is the one rigscope would pick (`preference`), and asking Vulkan too
    /// loads every Vulkan driver installed only to find lavapipe (a few per cent of a
    /// `render`'s CPU time, and 9 MB). Should OpenGL give nothing, every backend is asked.
    pub fn headless() -> Result<Self, RenderError> {
        let descriptor = wgpu::InstanceDescriptor::new_without_display_handle_from_env;
        if std::env::var_os("WGPU_BACKEND").is_none()
            && !gpu_device_present(Path::new("/dev"))
            && let Ok(gpu) = Self::with_instance(
                wgpu::Instance::new(wgpu::InstanceDescriptor {
                    backends: wgpu::Backends::GL,
                    ..descriptor()
                }),
                None,
            )
        {
            return Ok(Self {
                choice: format!("{}{OPENGL_ALONE}", gpu.choice),
                ..gpu
            });
        }
        Self::with_instance(wgpu::Instance::new(descriptor()), None)
    }

    /// Keeps Mesa's Vulkan device-selection layer out of headless work. wgpu enables every
    /// window-system extension a Vulkan driver offers, and the layer, seeing Wayland's, connects
    /// to the Wayland compositor to find its GPU; with none (a server, a build machine, the
    /// thumbnailer) libwayland prints "error: XDG_RUNTIME_DIR is invalid or not set" twice on
    /// every command. rigscope picks its adapter itself (`preference`), so the layer adds
    /// nothing there. A user's own `NODEVICE_SELECT` or `MESA_VK_DEVICE_SELECT` is left as set.
    ///
    /// # Safety
    ///
    /// It sets an environment variable: call it before any other thread starts.
    pub unsafe fn leave_out_vulkan_device_selection() {
        let chosen_by_user = std::env::vars_os()
            .any(|(name, _)| name == "NODEVICE_SELECT" || name.to_string_lossy().starts_with("MESA_VK_DEVICE_SELECT"));
        if !chosen_by_user {
            // SAFETY: the caller promises no other thread runs (and so none reads the
            // environment).
            unsafe { std::env::set_var("NODEVICE_SELECT", "1") };
        }
    }

    /// A device that can present to surfaces of the given display.
    pub fn for_display(
        display: Box<dyn wgpu::wgt::WgpuHasDisplayHandle>,
        surface: impl FnOnce(&wgpu::Instance) -> anyhow::Result<wgpu::Surface<'static>>,
    ) -> anyhow::Result<(Self, wgpu::Surface<'static>)> {
        let instance = wgpu::Instance::new(wgpu::InstanceDescriptor::new_with_display_handle_from_env(display));
        let surface = surface(&instance)?;
        let gpu = Self::with_instance(instance, Some(&surface))?;
        Ok((gpu, surface))
    }

    fn with_instance(instance: wgpu::Instance, surface: Option<&wgpu::Surface>) -> Result<Self, RenderError> {
        let mut adapters = pollster::block_on(instance.enumerate_adapters(wgpu::Backends::all()));
        adapters.retain(|adapter| surface.is_none_or(|surface| adapter.is_surface_supported(surface)));
        let infos: Vec<wgpu::AdapterInfo> = adapters.iter().map(wgpu::Adapter::get_info).collect();
        let best = (0..adapters.len())
            .min_by_key(|&i| preference(infos[i].device_type, infos[i].backend))
            .ok_or_else(|| RenderError::NoAdapter {
                backend_note: backend_override_note(),
            })?;
        let choice = choice_reason(&infos[best], &infos);
        let adapter = adapters.swap_remove(best);
        let (device, queue) = pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor {
            label: Some("rigscope"),
            // Everything the adapter offers: the skinning arrays are sized from its uniform
            // buffer limit.
            required_limits: adapter.limits(),
            // Timestamps, where offered, for the panel's GPU time per frame; BC formats, where
            // offered, so KTX2/Basis textures stay compressed (`compressed_texture`).
            required_features: adapter.features()
                & (wgpu::Features::TIMESTAMP_QUERY | wgpu::Features::TEXTURE_COMPRESSION_BC),
            ..Default::default()
        }))
        .map_err(RenderError::Device)?;
        let texture_side = device.limits().max_texture_dimension_2d;
        Ok(Self {
            adapter,
            device,
            queue,
            choice,
            texture_side,
        })
    }

    /// Uploads the models made from now on with textures no larger than a `width` x `height`
    /// picture can show (`picture_texture_side`): a 256² thumbnail does not decode, hold or
    /// sample 4096² textures.
    pub fn fit_textures_to(&mut self, (width, height): (u32, u32)) {
        self.texture_side = picture_texture_side((width, height)).min(self.device.limits().max_texture_dimension_2d);
    }

    /// Short description of the adapter, for the panel and logs (`choice` says why this one).
    pub fn describe(&self) -> String {
        let info = self.adapter.get_info();
        format!("{} ({:?})", info.name, info.backend)
    }

    /// The adapter rasterises on the CPU (Mesa's llvmpipe and the like), where every pixel
    /// and sample costs CPU time.
    pub fn is_software(&self) -> bool {
        self.adapter.get_info().device_type == wgpu::DeviceType::Cpu
    }

    /// The largest MSAA sample count (up to 4) the adapter supports for `format`.
    pub fn sample_count(&self, format: wgpu::TextureFormat) -> u32 {
        let flags = self.adapter.get_texture_format_features(format).flags;
        if flags.sample_count_supported(4) { 4 } else { 1 }
    }
}

/// The texture side a `width` x `height` picture needs: the smallest power of two at least its
/// longer side, the mip level at which a texture spread once over the whole picture still has
/// a texel for every pixel (1024 for 640x480, 256 for a 256² thumbnail). A texture magnified
/// further (an atlas whose one part fills the picture) is drawn a little softer.
pub fn picture_texture_side((width, height): (u32, u32)) -> u32 {
    width.max(height).max(1).checked_next_power_of_two().unwrap_or(u32::MAX)
}

/// What `Gpu::choice` adds when a headless device was looked for through OpenGL alone.
const OPENGL_ALONE: &str = " (OpenGL alone asked: this machine has no GPU device)";

/// Whether the machine has a device node a GPU driver opens, in the device folder `dev`
/// (`/dev`): a DRM node (`dri/renderD*`, `dri/card*`), NVIDIA's (`nvidia*`) or WSL's GPU
/// (`dxg`). Without one (a server, a container, a build machine) only CPU rasterisers can
/// serve. Elsewhere than Linux it cannot tell, and says yes.
pub fn gpu_device_present(dev: &Path) -> bool {
    if !cfg!(target_os = "linux") {
        return true;
    }
    let names = |folder: &Path| -> Vec<String> {
        std::fs::read_dir(folder).map_or(Vec::new(), |entries| {
            (entries.flatten())
                .map(|entry| entry.file_name().to_string_lossy().into_owned())
                .collect()
        })
    };
    let drm = names(&dev.join("dri"))
        .iter()
        .any(|name| name.starts_with("renderD") || name.starts_with("card"));
    drm || (names(dev).iter()).any(|name| name.starts_with("nvidia") || name == "dxg")
}

/// How much rigscope prefers an adapter (lower first): a GPU before a CPU rasteriser
/// (discrete, integrated, virtual, other); among GPUs the native APIs before OpenGL; among CPU
/// rasterisers Mesa's llvmpipe through OpenGL before lavapipe through Vulkan, which draws this
/// renderer 1.5 to 9.5 times slower (docs/PERFORMANCE.md). `WGPU_BACKEND` narrows the choice to
/// the backends it names.
pub fn preference(device_type: wgpu::DeviceType, backend: wgpu::Backend) -> (u8, u8) {
    use wgpu::{Backend, DeviceType};
    let kind = match device_type {
        DeviceType::DiscreteGpu => 0,
        DeviceType::IntegratedGpu => 1,
        DeviceType::VirtualGpu => 2,
        DeviceType::Other => 3,
        DeviceType::Cpu => 4,
    };
    let api = match (device_type, backend) {
        (DeviceType::Cpu, Backend::Gl) => 0,
        (DeviceType::Cpu, _) => 1,
        (_, Backend::Gl) => 1,
        _ => 0,
    };
    (kind, api)
}

/// Why `chosen` of `all` (it among them), in words.
fn choice_reason(chosen: &wgpu::AdapterInfo, all: &[wgpu::AdapterInfo]) -> String {
    let kind = match chosen.device_type {
        wgpu::DeviceType::DiscreteGpu => "a discrete GPU",
        wgpu::DeviceType::IntegratedGpu => "an integrated GPU",
        wgpu::DeviceType::VirtualGpu => "a virtual GPU",
        wgpu::DeviceType::Other => "an adapter of unknown kind",
        wgpu::DeviceType::Cpu => "a CPU rasteriser",
    };
    let others: Vec<String> = (all.iter())
        .filter(|info| !(info.name == chosen.name && info.backend == chosen.backend))
        .map(|info| format!("{} ({:?})", info.name, info.backend))
        .collect();
    let slower_cpu =
        (all.iter()).any(|info| info.device_type == wgpu::DeviceType::Cpu && info.backend != chosen.backend);
    let mut reason = match others.is_empty() {
        true => format!("{kind}, the only adapter found{}", backend_override_note()),
        false => format!("{kind}, preferred to {}{}", others.join(", "), backend_override_note()),
    };
    if chosen.device_type == wgpu::DeviceType::Cpu && chosen.backend == wgpu::Backend::Gl && slower_cpu {
        reason.push_str(": Mesa's OpenGL rasteriser draws rigscope 1.5 to 9.5 times faster than its Vulkan one");
    }
    reason
}

/// " (WGPU_BACKEND=...)" when the environment narrows the backends, else nothing.
fn backend_override_note() -> String {
    std::env::var("WGPU_BACKEND").map_or(String::new(), |value| format!(", as WGPU_BACKEND={value} asks"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use wgpu::{Backend, DeviceType};

    #[test]
    fn a_picture_needs_textures_of_the_power_of_two_that_covers_it() {
        assert_eq!(picture_texture_side((640, 480)), 1024);
        assert_eq!(picture_texture_side((256, 256)), 256);
        assert_eq!(picture_texture_side((300, 1025)), 2048);
        assert_eq!(picture_texture_side((0, 0)), 1);
    }

    #[test]
    fn without_a_gpu_device_a_headless_device_is_looked_for_through_opengl_alone() {
        let gpu = Gpu::headless().unwrap();
        let expected = std::env::var_os("WGPU_BACKEND").is_none() && !gpu_device_present(Path::new("/dev"));
        assert_eq!(gpu.choice.ends_with(OPENGL_ALONE), expected, "{}", gpu.choice);
        if expected {
            assert_eq!(gpu.adapter.get_info().backend, wgpu::Backend::Gl, "{}", gpu.choice);
        }
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_gpu_is_reachable_through_a_drm_nvidia_or_wsl_node() {
        let dev = std::env::temp_dir().join(format!("rigscope-gpu-nodes-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dev);
        std::fs::create_dir_all(dev.join("dri")).unwrap();
        for name in ["null", "zero", "fuse", "dri/by-path"] {
            std::fs::write(dev.join(name), "").unwrap();
        }
        let without = gpu_device_present(&dev);
        let with = |node: &str| {
            std::fs::write(dev.join(node), "").unwrap();
            let present = gpu_device_present(&dev);
            std::fs::remove_file(dev.join(node)).unwrap();
            present
        };
        let nodes = ["dri/renderD128", "dri/card0", "nvidia0", "nvidiactl", "dxg"].map(with);
        std::fs::remove_dir_all(&dev).unwrap();
        assert!(!without, "no GPU node among null, zero, fuse and dri/by-path");
        assert_eq!(nodes, [true; 5], "renderD128, card0, nvidia0, nvidiactl, dxg");
        assert!(!gpu_device_present(&dev), "no device folder at all");
    }

    #[test]
    fn a_gpu_comes_first_and_llvmpipe_before_lavapipe() {
        let llvmpipe = preference(DeviceType::Cpu, Backend::Gl);
        let lavapipe = preference(DeviceType::Cpu, Backend::Vulkan);
        let integrated = preference(DeviceType::IntegratedGpu, Backend::Vulkan);
        let discrete = preference(DeviceType::DiscreteGpu, Backend::Vulkan);
        let discrete_gl = preference(DeviceType::DiscreteGpu, Backend::Gl);
        assert!(llvmpipe < lavapipe, "llvmpipe's OpenGL before lavapipe's Vulkan");
        assert!(integrated < llvmpipe && discrete < integrated);
        assert!(discrete < discrete_gl, "a GPU's native API before its OpenGL");
    }
}
