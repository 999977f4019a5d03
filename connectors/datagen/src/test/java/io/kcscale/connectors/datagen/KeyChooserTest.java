package io.kcscale.connectors.datagen;

import static io.kcscale.connectors.datagen.TaskHarness.props;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.confluent.avro.random.generator.Generator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;

class KeyChooserTest {

    private static DatagenConfig stockTrades(String... more) {
        Map<String, String> props = props("kafka.topic", "trades", "quickstart", "stock_trades");
        props.putAll(props(more));
        return new DatagenConfig(props);
    }

    private static Generator generator(DatagenConfig config, long seed) {
        return new Generator.Builder()
                .schema(config.valueSchema())
                .random(new Random(seed))
                .build();
    }

    /** How often each key comes out of {@code records} generated records. */
    private static Map<String, Integer> keyCounts(DatagenConfig config, long seed, int records) {
        Generator generator = generator(config, seed);
        KeyChooser keys = KeyChooser.forConfig(config, seed);
        Map<String, Integer> counts = new HashMap<>();
        for (int i = 0; i < records; i++) {
            counts.merge(keys.key((GenericRecord) generator.generate()), 1, Integer::sum);
        }
        return counts;
    }

    @Test
    void cardinalityCapsDistinctKeysAndReachesTheCap() {
        DatagenConfig config = stockTrades("schema.keyfield", "price", "key.cardinality", "50");
        Set<String> seen = new HashSet<>();
        Generator generator = generator(config, 3);
        KeyChooser keys = KeyChooser.forConfig(config, 3);

        for (int i = 0; i < 20_000; i++) {
            seen.add(keys.key((GenericRecord) generator.generate()));
            assertTrue(seen.size() <= 50, "more than 50 keys after " + i + " records: " + seen.size());
        }

        assertEquals(50, seen.size());
        for (int bucket = 0; bucket < 50; bucket++) {
            assertTrue(seen.contains("price-" + bucket), "missing price-" + bucket);
        }
    }

    @Test
    void bucketsDependOnTheValueAloneSoTasksAgree() {
        DatagenConfig config = stockTrades("schema.keyfield", "symbol", "key.cardinality", "3");
        KeyChooser oneTask = KeyChooser.forConfig(config, 1);
        KeyChooser anotherTask = KeyChooser.forConfig(config, 2);
        Generator generator = generator(config, 9);
        Map<Object, String> bucketOfSymbol = new HashMap<>();

        for (int i = 0; i < 2000; i++) {
            GenericRecord record = (GenericRecord) generator.generate();
            String key = oneTask.key(record);
            assertEquals(key, anotherTask.key(record));
            String previous = bucketOfSymbol.putIfAbsent(record.get("symbol").toString(), key);
            assertTrue(previous == null || previous.equals(key), "symbol moved bucket");
        }
        assertEquals(7, bucketOfSymbol.size(), "all seven symbols seen");
    }

    @Test
    void cardinalityAboveTheFieldsValuesKeepsOneKeyPerValueAtMost() {
        Map<String, Integer> counts = keyCounts(stockTrades("key.cardinality", "1000"), 5, 5000);

        assertTrue(counts.size() <= 2, "side has two values, got keys " + counts.keySet());
    }

    @Test
    void zipfSkewGivesTheTopKeyItsExpectedShare() {
        int cardinality = 10;
        double skew = 1.0;
        int records = 50_000;
        Map<String, Integer> counts = keyCounts(
                stockTrades("key.cardinality", Integer.toString(cardinality), "key.skew", Double.toString(skew)),
                11,
                records);

        double harmonic = 0;
        for (int rank = 1; rank <= cardinality; rank++) {
            harmonic += 1 / Math.pow(rank, skew);
        }
        double expectedTopShare = 1 / harmonic;
        double topShare = counts.get("side-0") / (double) records;
        assertEquals(expectedTopShare, topShare, expectedTopShare * 0.05);
        assertEquals(cardinality, counts.size());
        assertTrue(
                counts.get("side-0") > counts.get("side-1") && counts.get("side-1") > counts.get("side-9"),
                counts.toString());
    }

    @Test
    void withoutCardinalityTheKeyIsTheFieldValue() {
        Map<String, Integer> counts = keyCounts(stockTrades("schema.keyfield", "userid"), 1, 2000);

        assertEquals(
                Set.of("User_1", "User_2", "User_3", "User_4", "User_5", "User_6", "User_7", "User_8", "User_9"),
                counts.keySet());
    }
}
