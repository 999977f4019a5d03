package io.kcscale.scaler.prometheus;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.kcscale.scaler.prometheus.BoundedGet.MetricsReadException;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PrometheusCpuReaderTest {

    @Test
    void anInstantVectorBySampleInstance() throws MetricsReadException {
        String body = """
                {"status":"success","data":{"resultType":"vector","result":[
                 {"metric":{"instance":"10.0.0.7:9404","job":"connect"},"value":[1795764000.5,"1.25"]},
                 {"metric":{"instance":"10.0.0.7:9404","job":"other"},"value":[1795764000.5,"1.5"]},
                 {"metric":{"instance":"10.0.0.8:9404"},"value":[1795764000.5,"NaN"]},
                 {"metric":{"job":"connect"},"value":[1795764000.5,"3"]}]}}""";
        Map<String, double[]> v = PrometheusCpuReader.vector(body, "p");
        assertEquals(2, v.size());
        assertArrayEquals(
                new double[] {1795764000.5, 1.5}, v.get("10.0.0.7:9404"), "two jobs on one exporter: the same process");
        assertEquals(Double.NaN, v.get("10.0.0.8:9404")[1]);
    }

    @Test
    void anErrorOrNoJsonIsOneLine() {
        assertEquals(
                "http://p:9090 refused the query: parse error",
                assertThrows(
                                MetricsReadException.class,
                                () -> PrometheusCpuReader.vector(
                                        "{\"status\":\"error\",\"error\":\"parse error\"}", "http://p:9090"))
                        .getMessage());
        assertEquals(
                "http://p:9090 answered no Prometheus query result (is it Prometheus's URL?)",
                assertThrows(MetricsReadException.class, () -> PrometheusCpuReader.vector("<html>", "http://p:9090"))
                        .getMessage());
    }

    @Test
    void anInstanceIsMatchedLiterally() {
        assertEquals("10\\\\.0\\\\.0\\\\.7:9404", PrometheusCpuReader.escaped("10.0.0.7:9404"));
        assertEquals("connect-0\\\\.connect:9404", PrometheusCpuReader.escaped("connect-0.connect:9404"));
    }
}
