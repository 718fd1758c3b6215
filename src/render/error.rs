//! Why a picture could not be made: no graphics device, a picture larger than the device
//! draws, or the GPU failing to finish or hand back its pixels. The words are those the
//! commands print; an underlying wgpu error is the `source` where the words stop short of it.

/// What went wrong between finding a graphics device and reading a picture back from it.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum RenderError {
    /// wgpu found no adapter; `backend_note` names the `WGPU_BACKEND` that narrowed the search,
    /// if one did.
    #[error("no graphics adapter (wgpu found none{backend_note})")]
    NoAdapter { backend_note: String },
    /// The adapter was found but would not open a device.
    #[error("cannot open the graphics device")]
    Device(#[source] wgpu::RequestDeviceError),
    /// A picture wider or taller than the device's largest texture.
    #[error("{width}x{height} is larger than this graphics device renders ({max_side} pixels a side)")]
    TooLarge { width: u32, height: u32, max_side: u32 },
    /// Waiting for the GPU to finish the work a read-back needs failed.
    #[error("waiting for the GPU")]
    Wait(#[source] wgpu::PollError),
    /// Waiting for a benchmarked frame failed.
    #[error("the GPU did not finish a frame: {0}")]
    FrameUnfinished(wgpu::PollError),
    /// The device dropped a read-back before saying whether it succeeded; `what` names the data.
    #[error("the GPU dropped the readback of {what}")]
    ReadbackDropped {
        what: String,
        #[source]
        source: std::sync::mpsc::RecvError,
    },
    /// Mapping a read-back buffer failed; `what` names the data.
    #[error("cannot read {what} back: {error}")]
    Readback {
        what: String,
        error: wgpu::BufferAsyncError,
    },
    /// The mapped read-back buffer could not be viewed.
    #[error("cannot read the image back: {0:?}")]
    MappedRange(wgpu::MapRangeError),
    /// The read-back held a different number of pixels than the picture has.
    #[error("readback size mismatch")]
    ReadbackSize,
}

#[cfg(test)]
mod tests {
    use std::error::Error;

    use super::*;

    #[test]
    fn a_picture_too_large_says_its_size_and_the_device_limit() {
        let error = RenderError::TooLarge {
            width: 9000,
            height: 100,
            max_side: 8192,
        };
        assert_eq!(
            error.to_string(),
            "9000x100 is larger than this graphics device renders (8192 pixels a side)"
        );
        assert!(error.source().is_none());
    }

    #[test]
    fn errors_in_words_of_their_own_chain_the_wgpu_error_once() {
        let dropped = RenderError::ReadbackDropped {
            what: "the image".into(),
            source: std::sync::mpsc::RecvError,
        };
        assert_eq!(dropped.to_string(), "the GPU dropped the readback of the image");
        assert!(dropped.source().is_some());
        // The wgpu error already in the words is not chained again.
        let unmapped = RenderError::Readback {
            what: "the frame".into(),
            error: wgpu::BufferAsyncError,
        };
        assert_eq!(
            unmapped.to_string(),
            format!("cannot read the frame back: {}", wgpu::BufferAsyncError)
        );
        assert!(unmapped.source().is_none());
        // anyhow, as the commands print errors, says each part once.
        let printed = format!("{:#}", anyhow::Error::from(dropped));
        assert_eq!(
            printed,
            "the GPU dropped the readback of the image: receiving on a closed channel"
        );
    }
}
