package io.kcscale.scaler.api;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;

/**
 * Percent-decoding of one raw path segment, as RFC 3986 means it: {@code +} is a plus (only form
 * bodies and query strings spell a space so), and the escapes must form UTF-8.
 */
final class PathSegment {

    private PathSegment() {}

    /** @throws ApiError 400 for a {@code %} not followed by two hex digits, or escapes that are not UTF-8 */
    static String decode(String raw) {
        if (raw.indexOf('%') < 0) {
            return raw;
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(raw.length());
        for (int i = 0; i < raw.length(); ) {
            int c = raw.codePointAt(i);
            if (c != '%') {
                bytes.writeBytes(Character.toString(c).getBytes(StandardCharsets.UTF_8));
                i += Character.charCount(c);
                continue;
            }
            if (i + 2 >= raw.length()
                    || !HexFormat.isHexDigit(raw.charAt(i + 1))
                    || !HexFormat.isHexDigit(raw.charAt(i + 2))) {
                throw malformed(raw);
            }
            bytes.write(HexFormat.fromHexDigits(raw, i + 1, i + 3));
            i += 3;
        }
        try {
            return StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes.toByteArray()))
                    .toString();
        } catch (CharacterCodingException e) {
            throw malformed(raw);
        }
    }

    private static ApiError malformed(String raw) {
        return new ApiError(
                400,
                "the path segment " + raw + " is not valid percent-encoded UTF-8"
                        + " (a % must start an escape such as %25)",
                null);
    }
}
