// The sample formats FoldbackRender writes. Non-realtime.
import CSndfile

/// How samples are stored in a written WAV file.
public enum AudioFileFormat: String, Sendable, Equatable, CaseIterable {
    /// 32-bit IEEE float: lossless for the engine's output, keeps overs above 0 dBFS.
    case float
    /// 24-bit integer PCM: what most players and DAWs take; clips at 0 dBFS.
    case pcm24

    /// The libsndfile format word: RF64 that downgrades to plain WAV below 4 GiB.
    var sndfileFormat: Int32 {
        let subtype = switch self {
        case .float: SF_FORMAT_FLOAT
        case .pcm24: SF_FORMAT_PCM_24
        }
        return Int32(SF_FORMAT_RF64 | subtype)
    }
}
