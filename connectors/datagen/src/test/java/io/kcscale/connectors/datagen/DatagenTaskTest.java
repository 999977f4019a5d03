package io.kcscale.connectors.datagen;

import static io.kcscale.connectors.datagen.TaskHarness.props;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.header.Header;
import org.apache.kafka.connect.source.SourceRecord;
import org.junit.jupiter.api.Test;

class DatagenTaskTest {

    /** stock_trades produced as fast as possible; tests add or override keys. */
    private static Map<String, String> stockTrades(String... more) {
        Map<String, String> props = props("kafka.topic", "trades", "quickstart", "stock_trades", "max.interval", "0");
        props.putAll(props(more));
        return props;
    }

    private static Struct value(SourceRecord record) {
        return (Struct) record.value();
    }

    /** The generated fields, without the production time, which differs from run to run. */
    private static List<Object> generatedFields(SourceRecord record) {
        return value(record).schema().fields().stream()
                .filter(field -> !field.name().equals(ValueFactory.PRODUCED_AT_FIELD))
                .map(field -> value(record).get(field))
                .collect(Collectors.toList());
    }

    @Test
    void withoutAKeyFieldTheKeyIsTheFirstFieldSide() throws InterruptedException {
        List<SourceRecord> records = TaskHarness.poll(TaskHarness.start(stockTrades()), 2000);

        Set<Object> keys = new HashSet<>();
        for (SourceRecord record : records) {
            assertEquals(value(record).getString("side"), record.key());
            assertEquals(Schema.STRING_SCHEMA, record.keySchema());
            keys.add(record.key());
        }
        assertEquals(Set.of("BUY", "SELL"), keys);
    }

    @Test
    void keyFieldPriceMakesThePriceTheKey() throws InterruptedException {
        List<SourceRecord> records = TaskHarness.poll(TaskHarness.start(stockTrades("schema.keyfield", "price")), 5000);

        Set<Object> keys = new HashSet<>();
        for (SourceRecord record : records) {
            int price = value(record).getInt32("price");
            assertEquals(Integer.toString(price), record.key());
            assertTrue(price >= 5 && price <= 1000, "price " + price);
            keys.add(record.key());
        }
        assertTrue(keys.size() > 900, keys.size() + " distinct prices in 5000 trades");
    }

    @Test
    void recordsCarryTheSchemaFieldsProductionTimeAndSourcePosition() throws InterruptedException {
        DatagenTask task = TaskHarness.start(stockTrades("task.id", "3"));
        long before = System.currentTimeMillis();

        List<SourceRecord> records = TaskHarness.poll(task, 3);

        long after = System.currentTimeMillis();
        assertEquals(
                List.of("side", "quantity", "symbol", "price", "account", "userid", "produced_at_ms"),
                records.get(0).valueSchema().fields().stream().map(Field::name).collect(Collectors.toList()));
        for (int i = 0; i < records.size(); i++) {
            SourceRecord record = records.get(i);
            assertEquals("trades", record.topic());
            assertEquals(Map.of("task", 3), record.sourcePartition());
            assertEquals(Map.of("produced", i + 1L), record.sourceOffset());
            long producedAt = value(record).getInt64("produced_at_ms");
            assertTrue(producedAt >= before && producedAt <= after);
            assertEquals(producedAt, record.timestamp());
            Header header = record.headers().lastWithName("kcscale.produced.ms");
            assertEquals(producedAt, header.value());
            assertTrue(value(record).getString("userid").matches("User_[1-9]"));
        }
    }

    @Test
    void usersQuickstartGeneratesItsFields() throws InterruptedException {
        SourceRecord record = TaskHarness.poll(
                        TaskHarness.start(props("kafka.topic", "users", "quickstart", "USERS", "max.interval", "0")), 1)
                .get(0);

        Struct user = value(record);
        long registered = user.getInt64("registertime");
        assertTrue(registered >= 1_500_000_000_000L && registered < 1_700_000_000_000L, "registertime " + registered);
        assertTrue(user.getString("regionid").startsWith("Region_"));
        assertTrue(Set.of("MALE", "FEMALE", "OTHER").contains(user.getString("gender")));
        assertEquals(Long.toString(registered), record.key());
    }

    @Test
    void iterationsStopTheTaskExactlyAtNWithoutFailing() throws InterruptedException {
        DatagenTask task = TaskHarness.start(stockTrades("iterations", "2500"));

        List<SourceRecord> records = TaskHarness.poll(task, 10_000);

        assertEquals(2500, records.size());
        assertEquals(Map.of("produced", 2500L), records.get(2499).sourceOffset());
        assertNull(task.poll());
        assertNull(task.poll());
    }

    @Test
    void aRestartedTaskContinuesFromItsCommittedCount() throws InterruptedException {
        DatagenTask task = TaskHarness.start(stockTrades("iterations", "2500"), Map.of("produced", 2000L));

        List<SourceRecord> records = TaskHarness.poll(task, 10_000);

        assertEquals(500, records.size());
        assertEquals(Map.of("produced", 2001L), records.get(0).sourceOffset());
        assertEquals(Map.of("produced", 2500L), records.get(499).sourceOffset());
    }

    @Test
    void theSameSeedGivesTheSameRecordsAndEachTaskItsOwn() throws InterruptedException {
        Map<String, String> seeded = stockTrades("random.seed", "1234");
        List<SourceRecord> first = TaskHarness.poll(TaskHarness.start(seeded), 200);
        List<SourceRecord> again = TaskHarness.poll(TaskHarness.start(seeded), 200);
        seeded.put("task.id", "1");
        List<SourceRecord> otherTask = TaskHarness.poll(TaskHarness.start(seeded), 200);

        assertEquals(
                first.stream().map(SourceRecord::key).collect(Collectors.toList()),
                again.stream().map(SourceRecord::key).collect(Collectors.toList()));
        assertEquals(
                first.stream().map(DatagenTaskTest::generatedFields).collect(Collectors.toList()),
                again.stream().map(DatagenTaskTest::generatedFields).collect(Collectors.toList()));
        assertNotEquals(
                first.stream().map(DatagenTaskTest::generatedFields).collect(Collectors.toList()),
                otherTask.stream().map(DatagenTaskTest::generatedFields).collect(Collectors.toList()));
    }

    @Test
    void keyCardinalityAppliesToTaskRecords() throws InterruptedException {
        List<SourceRecord> records = TaskHarness.poll(
                TaskHarness.start(stockTrades("schema.keyfield", "quantity", "key.cardinality", "16")), 5000);

        Set<Object> keys = records.stream().map(SourceRecord::key).collect(Collectors.toSet());
        assertEquals(16, keys.size());
        assertTrue(keys.stream().allMatch(key -> ((String) key).matches("quantity-([0-9]|1[0-5])")), keys.toString());
    }

    @Test
    void aNullKeyFieldGivesANullKeyUnlessKeysAreCapped() throws InterruptedException {
        String schema = "{\"type\":\"record\",\"name\":\"R\",\"fields\":["
                + "{\"name\":\"maybe\",\"type\":[\"null\",{\"type\":\"string\",\"arg.properties\":"
                + "{\"options\":[\"a\"]}}]}]}";
        Map<String, String> props = props("kafka.topic", "t", "schema.string", schema, "max.interval", "0");

        Set<Object> keys = new HashSet<>();
        for (SourceRecord record : TaskHarness.poll(TaskHarness.start(props), 200)) {
            keys.add(record.key());
            assertEquals(
                    record.key() == null ? Schema.OPTIONAL_STRING_SCHEMA : Schema.STRING_SCHEMA, record.keySchema());
        }
        props.put("key.cardinality", "1000");
        Set<Object> cappedKeys = new HashSet<>();
        for (SourceRecord record : TaskHarness.poll(TaskHarness.start(props), 200)) {
            cappedKeys.add(record.key());
        }

        assertEquals(new HashSet<>(Arrays.asList(null, "a")), keys);
        assertEquals(2, cappedKeys.size(), "null and a bucketed apart: " + cappedKeys);
        assertTrue(cappedKeys.stream().allMatch(key -> ((String) key).startsWith("maybe-")), cappedKeys.toString());
    }
}
