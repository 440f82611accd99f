/**
 * OpenAPI has no WebSocket operations; the streaming socket is documented as a GET with an
 * `x-websocket` extension describing its messages (contract "Streaming messages").
 */
export function streamingPaths(): Record<string, unknown> {
  return {
    '/v1/audio/transcriptions/stream': {
      get: {
        operationId: 'streamTranscription',
        tags: ['Transcriptions'],
        summary: 'Live transcription over WebSocket (upgrade)',
        description:
          'Connect with ws://. Credentials: X-API-KEY or X-API-TOKEN header or api_token query (temporary token), plus X-ACCOUNT-ID header or account_id query. The server first sends {type:"status",status:"connected"}; then send {audio: base64}. Also {type:"KeepAlive"}, {type:"Finalize"}, {type:"CloseStream"}. Bad credentials or parameters: an error message then close code 1008.',
        security: [],
        parameters: [
          { name: 'language', in: 'query', schema: { type: 'string', default: 'en', pattern: '^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$' } },
          { name: 'sample_rate', in: 'query', schema: { type: 'integer', default: 16000, minimum: 4000, maximum: 192000 } },
          { name: 'channels', in: 'query', description: 'Interleaved channels of raw PCM (extension).', schema: { type: 'integer', default: 1, minimum: 1, maximum: 8 } },
          {
            name: 'encoding', in: 'query',
            schema: { type: 'string', enum: ['linear16', 'linear32', 'flac', 'alaw', 'mulaw', 'amr-nb', 'amr-wb', 'opus', 'ogg-opus', 'speex', 'g729'] },
          },
          { name: 'dictation', in: 'query', schema: { type: 'boolean', default: false } },
          { name: 'account_id', in: 'query', schema: { type: 'string' } },
          { name: 'api_token', in: 'query', schema: { type: 'string' } },
        ],
        responses: { '101': { description: 'Switching protocols to WebSocket' }, '401': { description: 'Rejected before upgrade is never used: errors arrive as messages then close 1008' } },
        'x-websocket': {
          clientMessages: ['{audio: string (base64)}', '{type: "KeepAlive"}', '{type: "Finalize"}', '{type: "CloseStream"}'],
          // The same, as JSON Schema, for generators and validators (binary frames are raw audio too).
          clientMessageSchema: {
            oneOf: [
              { type: 'object', required: ['audio'], properties: { audio: { type: 'string', contentEncoding: 'base64', maxLength: 1_398_104 } } },
              { type: 'object', required: ['type'], properties: { type: { enum: ['KeepAlive', 'Finalize', 'CloseStream'] } } },
            ],
          },
          serverMessages: {
            status: '{type:"status", status:"connected"|"disconnected", timestamp}',
            error: '{type:"error", error: string, timestamp}',
            transcript: '{type:"transcript", audio_start, audio_end, duration, text, is_final, isFinal, words:[{word,start,end,confidence,punctuated_word}], timestamp}',
          },
        },
      },
    },
  };
}
