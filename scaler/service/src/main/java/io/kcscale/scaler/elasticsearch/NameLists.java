package io.kcscale.scaler.elasticsearch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.TreeSet;

/**
 * Index names put in request paths a few at a time. Elasticsearch and OpenSearch refuse a request line over 4 KiB
 * ({@code http.max_initial_line_length}) with a 400, so a fleet's hundreds of indexes in one {@code /a,b,c/_stats}
 * would fail every reading, or read as "no such alias" where a 400 is an accepted answer.
 */
final class NameLists {

    /**
     * Characters of comma-joined, percent-encoded names per request: the 4 KiB line less the method, the endpoint, the
     * parameters and the protocol.
     */
    static final int MAX_PATH_NAMES = 3_000;

    private NameLists() {}

    /** The names, sorted, in comma-joined lists of at most {@code budget} encoded characters (a longer name alone). */
    static List<String> split(Collection<String> names, int budget) {
        List<String> lists = new ArrayList<>();
        StringBuilder list = new StringBuilder();
        int encoded = 0;
        for (String name : new TreeSet<>(names)) {
            int cost = encodedLength(name);
            if (list.length() > 0 && encoded + 1 + cost > budget) {
                lists.add(list.toString());
                list.setLength(0);
                encoded = 0;
            }
            if (list.length() > 0) {
                list.append(',');
                encoded++;
            }
            list.append(name);
            encoded += cost;
        }
        if (list.length() > 0) {
            lists.add(list.toString());
        }
        return lists;
    }

    /** What the name takes in a path: characters other than lower-case letters, digits, '.', '_' and '-' are escaped. */
    private static int encodedLength(String name) {
        int length = 0;
        for (char c : name.toCharArray()) {
            boolean plain = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-';
            length += plain ? 1 : 12; // at most four UTF-8 bytes, each %XX: an over-estimate only splits sooner
        }
        return length;
    }

    /**
     * The answers to one request per list read as one: objects merged field by field (an index of two lists' aliases keeps
     * both), arrays joined, and of other values the later kept (the per-request counts {@code _shards} and {@code _all}
     * are of one list only, so callers read the per-index entries).
     */
    static void merge(ObjectNode into, JsonNode answer) {
        answer.fields().forEachRemaining(field -> {
            JsonNode mine = into.get(field.getKey());
            JsonNode theirs = field.getValue();
            if (mine instanceof ObjectNode o && theirs.isObject()) {
                merge(o, theirs);
            } else if (mine instanceof ArrayNode a && theirs.isArray()) {
                a.addAll((ArrayNode) theirs);
            } else {
                into.set(field.getKey(), theirs.deepCopy());
            }
        });
    }

    /** A few names for a message: the first three and how many in all. */
    static String describe(Collection<String> names) {
        List<String> sorted = List.copyOf(new TreeSet<>(names));
        return sorted.size() <= 3
                ? String.join(",", sorted)
                : String.join(",", sorted.subList(0, 3)) + ",... (" + sorted.size() + " names)";
    }
}
