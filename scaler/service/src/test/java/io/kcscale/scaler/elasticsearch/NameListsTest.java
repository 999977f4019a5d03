package io.kcscale.scaler.elasticsearch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class NameListsTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void fewNamesMakeOneSortedList() {
        assertEquals(List.of("a,b,c"), NameLists.split(Set.of("c", "a", "b"), 100));
        assertEquals(List.of(), NameLists.split(Set.of(), 100));
    }

    @Test
    void manyNamesAreSplitWithinTheBudgetAndNoneIsLostOrRepeated() {
        List<String> names = new ArrayList<>();
        for (int i = 0; i < 500; i++) {
            names.add(String.format("logs-%03d-%s", i, "x".repeat(40)));
        }
        List<String> lists = NameLists.split(names, NameLists.MAX_PATH_NAMES);
        assertTrue(lists.size() > 1, "500 names of 49 characters are more than one request line");
        List<String> back = new ArrayList<>();
        for (String list : lists) {
            assertTrue(list.length() <= NameLists.MAX_PATH_NAMES, list.length() + " characters");
            back.addAll(List.of(list.split(",")));
        }
        assertEquals(new TreeSet<>(names), new TreeSet<>(back));
        assertEquals(names.size(), back.size());
    }

    @Test
    void escapedCharactersCountAsTheirEncodingAndALongNameGoesAlone() {
        // '+' is sent as %2B: ten of them are 120 characters at most, over a budget of 50
        assertEquals(List.of("+++++++++", "a"), NameLists.split(Set.of("+++++++++", "a"), 50));
        String long_ = "l".repeat(255);
        assertEquals(List.of("a", long_), NameLists.split(Set.of("a", long_), 100));
    }

    @Test
    void answersMergeObjectsDeeplyAndJoinArrays() throws Exception {
        ObjectNode merged = JSON.createObjectNode();
        NameLists.merge(
                merged,
                JSON.readTree("{\"indices\":{\"a\":{\"n\":1}},\"idx\":{\"aliases\":{\"x\":{}}},\"data_streams\":[1]}"));
        NameLists.merge(
                merged,
                JSON.readTree("{\"indices\":{\"b\":{\"n\":2}},\"idx\":{\"aliases\":{\"y\":{}}},\"data_streams\":[2]}"));
        assertEquals(
                JSON.readTree(
                        "{\"indices\":{\"a\":{\"n\":1},\"b\":{\"n\":2}},\"idx\":{\"aliases\":{\"x\":{},\"y\":{}}},"
                                + "\"data_streams\":[1,2]}"),
                merged);
    }

    @Test
    void aMessageNamesThreeAndCountsTheRest() {
        assertEquals("a,b", NameLists.describe(Set.of("b", "a")));
        assertEquals("a,b,c,... (5 names)", NameLists.describe(Set.of("e", "d", "c", "b", "a")));
    }
}
