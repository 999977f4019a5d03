package io.kcscale.connectors.camel;

import java.util.Optional;

/**
 * Whether bytes can be JSON text in UTF-8 as Elasticsearch reads a bulk body: well-formed UTF-8 (no
 * overlong form, no surrogate, nothing past U+10FFFF), no byte order mark, and no control character
 * but tab, line feed and carriage return (JSON escapes them inside strings and allows only those three
 * between tokens). UTF-16 and UTF-32 text always holds a zero byte, so it never passes: a JSON parser
 * that detects encodings would take it, and the bulk body's line breaks would then cut its characters.
 */
final class Utf8Json {

    private Utf8Json() {}

    /** What makes {@code bytes} no UTF-8 JSON text, naming the byte; empty when nothing does. */
    static Optional<String> problem(byte[] bytes) {
        if (startsWith(bytes, 0xEF, 0xBB, 0xBF)) {
            return Optional.of("its value starts with a byte order mark (EF BB BF), which JSON text must not carry");
        }
        if (startsWith(bytes, 0xFE, 0xFF) || startsWith(bytes, 0xFF, 0xFE)) {
            return Optional.of("its value starts with a UTF-16 or UTF-32 byte order mark: only UTF-8 JSON is indexed");
        }
        int i = 0;
        while (i < bytes.length) {
            int b = bytes[i] & 0xFF;
            if (b < 0x80) {
                if (b < 0x20 && b != '\t' && b != '\n' && b != '\r') {
                    return Optional.of(String.format(
                            "its value holds the control byte 0x%02X at byte %d%s",
                            b,
                            i,
                            b == 0 ? ": is it UTF-16 or UTF-32? Only UTF-8 JSON is indexed" : ", which JSON escapes"));
                }
                i++;
                continue;
            }
            int length = sequenceLength(bytes, i);
            if (length == 0) {
                return Optional.of(String.format(
                        "its value is not UTF-8: byte 0x%02X at byte %d starts no UTF-8 character", b, i));
            }
            i += length;
        }
        return Optional.empty();
    }

    /** The length of the well-formed UTF-8 sequence of two to four bytes at {@code at}, or 0 (RFC 3629's table). */
    private static int sequenceLength(byte[] bytes, int at) {
        int b = bytes[at] & 0xFF;
        int length;
        int secondLow = 0x80;
        int secondHigh = 0xBF;
        if (b >= 0xC2 && b <= 0xDF) {
            length = 2;
        } else if (b >= 0xE0 && b <= 0xEF) {
            length = 3;
            secondLow = b == 0xE0 ? 0xA0 : 0x80;
            secondHigh = b == 0xED ? 0x9F : 0xBF;
        } else if (b >= 0xF0 && b <= 0xF4) {
            length = 4;
            secondLow = b == 0xF0 ? 0x90 : 0x80;
            secondHigh = b == 0xF4 ? 0x8F : 0xBF;
        } else {
            return 0;
        }
        if (at + length > bytes.length) {
            return 0;
        }
        int second = bytes[at + 1] & 0xFF;
        if (second < secondLow || second > secondHigh) {
            return 0;
        }
        for (int k = 2; k < length; k++) {
            int next = bytes[at + k] & 0xFF;
            if (next < 0x80 || next > 0xBF) {
                return 0;
            }
        }
        return length;
    }

    private static boolean startsWith(byte[] bytes, int... prefix) {
        if (bytes.length < prefix.length) {
            return false;
        }
        for (int i = 0; i < prefix.length; i++) {
            if ((bytes[i] & 0xFF) != prefix[i]) {
                return false;
            }
        }
        return true;
    }
}
