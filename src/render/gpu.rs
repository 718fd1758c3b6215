//! The wgpu device: found once, for a window or headless.

use anyhow::{Context, anyhow};

/// Adapter, device and queue.
pub struct Gpu {
    pub adapter: wgpu::Adapter,
    pub device: wgpu::Device,
    pub queue: wgpu::Queue,
}

impl Gpu {
    /// A device without a window (offscreen rendering). `WGPU_BACKEND` (e.g. `gl`) picks the
    /// backend; on machines without a GPU, Mesa's llvmpipe serves through the GL backend.
    pub fn headless() -> anyhow::Result<Self> {
        let instance = wgpu::Instance::new(wgpu::InstanceDescriptor::new_without_display_handle_from_env());
        Self::with_instance(instance, None)
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

    fn with_instance(instance: wgpu::Instance, surface: Option<&wgpu::Surface>) -> anyhow::Result<Self> {
        let adapter = pollster::block_on(instance.request_adapter(&wgpu::RequestAdapterOptions {
            power_preference: wgpu::PowerPreference::HighPerformance,
            force_fallback_adapter: false,
            compatible_surface: surface,
            apply_limit_buckets: false,
        }))
        .map_err(|e| anyhow!("no graphics adapter: {e}"))?;
        let (device, queue) = pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor {
            label: Some("rigscope"),
            // Everything the adapter offers: the skinning arrays are sized from its uniform
            // buffer limit.
            required_limits: adapter.limits(),
            // Timestamps, where offered, for the panel's GPU time per frame.
            required_features: adapter.features() & wgpu::Features::TIMESTAMP_QUERY,
            ..Default::default()
        }))
        .context("cannot open the graphics device")?;
        Ok(Self { adapter, device, queue })
    }

    /// Short description of the adapter, for the panel and logs.
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
