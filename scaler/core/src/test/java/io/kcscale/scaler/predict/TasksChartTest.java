package io.kcscale.scaler.predict;

import static io.kcscale.scaler.predict.TaskPredictionTest.assertField;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kcscale.scaler.chart.LineChart;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.NodeList;
import org.xml.sax.SAXException;

class TasksChartTest {

    @Test
    void aLinearPredictionDrawsLinearAndRecommendedOnly() throws Exception {
        Document svg = parse(TasksChart.svg(new TasksRequest(10_000.0, 70.0, null, null, null, null, null, null)));
        assertEquals(2, svg.getElementsByTagName("path").getLength() - 1, "two series besides the axes");
        List<String> texts = texts(svg);
        assertTrue(texts.contains("linear: rate / 70/s per task"), texts.toString());
        assertTrue(texts.contains("recommended: 80% utilization"), texts.toString());
        assertTrue(texts.contains("target 10,000/s"), texts.toString());
        assertTrue(texts.contains("15,000"), "the x axis runs past the target: " + texts);
    }

    @Test
    void badRequestsAreRefusedAsForThePrediction() {
        assertField(
                "targetRate", () -> TasksChart.svg(new TasksRequest(-1.0, 70.0, null, null, null, null, null, null)));
    }

    @Test
    void labelsAreEscaped() throws Exception {
        String svg = new LineChart("a < b & c", "x", "y")
                .add(new LineChart.Series(
                        "<series>", "#000", null, LineChart.Shape.STEPS, new double[] {1, 2}, new double[] {
                            1, Double.NaN
                        }))
                .svg();
        assertTrue(texts(parse(svg)).containsAll(List.of("a < b & c", "<series>")));
    }

    private static Document parse(String svg) throws ParserConfigurationException, IOException, SAXException {
        return DocumentBuilderFactory.newInstance()
                .newDocumentBuilder()
                .parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)));
    }

    private static List<String> texts(Document svg) {
        NodeList nodes = svg.getElementsByTagName("text");
        List<String> texts = new ArrayList<>();
        for (int i = 0; i < nodes.getLength(); i++) {
            texts.add(nodes.item(i).getTextContent());
        }
        return texts;
    }
}
