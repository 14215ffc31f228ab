import CFFmpeg

/// A movie's poster frame (MP4, MOV, a Live Photo's MOV) through libavformat/libavcodec: the
/// frame at 0.5 s or 10 % in, whichever is earlier (past a black or fading first frame, still
/// the scene the movie opens on), converted to RGB by libswscale and turned by the track's
/// display matrix. Video colour (BT.709) is taken as sRGB: the primaries are the same and the
/// difference in the curves is what players show anyway.
enum VideoFrameDecoder {
    /// Frames decoded at most while looking for the target time (a long GOP after the seek).
    static let maxFrames = 300

    static func decode(fd: Int32, name: String, limits: DecodeLimits) throws -> DecodedImage {
        av_log_set_level(AV_LOG_QUIET)   // FFmpeg's stderr chatter; the errors come back as values
        let io = try DescriptorIO(fd: fd, size: FileBytes.size(fd, name: name))
        var format = avformat_alloc_context()
        guard let fmt = format else { throw ImagingError(.io, name, "out of memory") }
        fmt.pointee.pb = io.context
        fmt.pointee.flags |= AVFMT_FLAG_CUSTOM_IO
        // On failure avformat_open_input frees the context itself.
        let opened = avformat_open_input(&format, nil, nil, nil)
        guard opened >= 0 else { throw ImagingError(.corrupt, name, "not a readable movie: \(errorText(opened))") }
        defer { avformat_close_input(&format); _ = io }
        guard avformat_find_stream_info(fmt, nil) >= 0 else {
            throw ImagingError(.corrupt, name, "movie's streams unreadable")
        }
        var codec: UnsafePointer<AVCodec>?
        let index = av_find_best_stream(fmt, AVMEDIA_TYPE_VIDEO, -1, -1, &codec, 0)
        guard index >= 0, let codec, let stream = fmt.pointee.streams[Int(index)] else {
            throw ImagingError(.noVideoStream, name, "no video stream with an installed decoder")
        }
        let par = stream.pointee.codecpar.pointee
        guard Int(par.width) * Int(par.height) <= limits.maxPixels else {
            throw ImagingError(.tooLarge, name, "\(par.width)×\(par.height) video is over the \(limits.maxPixels / 1_000_000)-megapixel limit")
        }
        var cc = avcodec_alloc_context3(codec)
        guard let ctx = cc else { throw ImagingError(.io, name, "out of memory") }
        defer { avcodec_free_context(&cc) }
        guard avcodec_parameters_to_context(ctx, stream.pointee.codecpar) >= 0 else {
            throw ImagingError(.corrupt, name, "video stream parameters unusable")
        }
        // One thread: the pipeline decodes several files at once already.
        ctx.pointee.thread_count = 1
        guard avcodec_open2(ctx, codec, nil) >= 0 else {
            throw ImagingError(.unsupported, name, "video decoder would not open")
        }

        // Times in Double: a file's time base and timestamps are whatever it says, and Int64
        // arithmetic on them could overflow; a zero time base gives no times at all.
        let tb = stream.pointee.time_base
        let timed = tb.num > 0 && tb.den > 0
        let seconds = { (ts: Int64) in timed ? Double(ts) * Double(tb.num) / Double(tb.den) : 0 }
        let start = stream.pointee.start_time == SHOEBOX_AV_NOPTS_VALUE ? 0 : stream.pointee.start_time
        var duration = stream.pointee.duration != SHOEBOX_AV_NOPTS_VALUE ? seconds(stream.pointee.duration) : 0
        if !(duration > 0), fmt.pointee.duration > 0 { duration = Double(fmt.pointee.duration) / Double(AV_TIME_BASE) }
        let target = duration.isFinite && duration > 0 ? min(0.5, duration * 0.1) : 0
        if target > 0, timed {
            let ticks = Double(start) + target * Double(tb.den) / Double(tb.num)
            let ts = ticks.isFinite && abs(ticks) < 9e18 ? Int64(ticks) : start
            // Back to the keyframe before the target; if the seek fails, decoding starts at 0.
            if av_seek_frame(fmt, index, ts, AVSEEK_FLAG_BACKWARD) < 0 {
                _ = av_seek_frame(fmt, index, start, AVSEEK_FLAG_BACKWARD)
            }
        }

        var packet = av_packet_alloc(), frame = av_frame_alloc(), kept = av_frame_alloc()
        defer { av_packet_free(&packet); av_frame_free(&frame); av_frame_free(&kept) }
        guard let packet, let frame, let kept else { throw ImagingError(.io, name, "out of memory") }
        var damaged = false, have = false, decoded = 0, keptSeconds = 0.0
        var done = false, flushing = false
        while !done {
            if !flushing {
                let r = av_read_frame(fmt, packet)
                if r < 0 {
                    flushing = true
                    _ = avcodec_send_packet(ctx, nil)
                } else {
                    defer { av_packet_unref(packet) }
                    if packet.pointee.stream_index != index { continue }
                    let s = avcodec_send_packet(ctx, packet)
                    if s < 0 && s != SHOEBOX_AVERROR_EAGAIN { damaged = true; continue }
                }
            }
            while true {
                let r = avcodec_receive_frame(ctx, frame)
                if r == SHOEBOX_AVERROR_EAGAIN { break }
                if r < 0 { if r != SHOEBOX_AVERROR_EOF { damaged = true }; done = flushing || done; break }
                if frame.pointee.decode_error_flags != 0 || frame.pointee.flags & AV_FRAME_FLAG_CORRUPT != 0 { damaged = true }
                av_frame_unref(kept)
                av_frame_move_ref(kept, frame)
                have = true
                decoded += 1
                let ts = kept.pointee.best_effort_timestamp
                keptSeconds = ts == SHOEBOX_AV_NOPTS_VALUE ? 0 : max(0, seconds(ts) - seconds(start))
                if keptSeconds >= target || decoded >= maxFrames { done = true; break }
            }
            if flushing && !done { done = true }
        }
        guard have else { throw ImagingError(.corrupt, name, "no decodable video frame") }
        let rgb = try VideoFrameConversion.rgb(kept, name: name, limits: limits)
        let upright = Orientation.apply(rotationOrientation(stream), to: rgb)
        return DecodedImage(image: upright, fullWidth: upright.width, fullHeight: upright.height,
                            damaged: damaged, source: .videoFrame(seconds: keptSeconds))
    }

    /// The display matrix's rotation as the EXIF orientation that turns the stored frame upright
    /// (av_display_rotation_get is anticlockwise; a phone held upright records 90° there).
    static func rotationOrientation(_ stream: UnsafeMutablePointer<AVStream>) -> Int {
        var size: Int = 0
        guard let data = av_stream_get_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, &size), size >= 36 else { return 1 }
        let angle = data.withMemoryRebound(to: Int32.self, capacity: 9) { av_display_rotation_get($0) }
        guard angle.isFinite else { return 1 }
        var clockwise = Int((-angle).rounded()) % 360
        if clockwise < 0 { clockwise += 360 }
        switch (clockwise + 45) / 90 % 4 {
        case 1: return 6
        case 2: return 3
        case 3: return 8
        default: return 1
        }
    }

    static func errorText(_ code: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 128)
        av_strerror(code, &buffer, buffer.count)
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
