package io.kcscale.lab.chaos;

import java.util.List;

/**
 * Every offset of the topic against the index and the dead-letter topic, once drained.
 *
 * @param records               offsets in the topic, malformed ones included
 * @param indexed               records with their document in the index
 * @param lost                  well-formed records without one, below the sink's committed offsets
 * @param pending               well-formed records without one, at or past them: the sink did not get that far
 * @param duplicated            documents beyond one per well-formed record
 * @param malformed             records produced as no JSON document
 * @param malformedToDeadLetter of those, the ones found in the dead-letter topic
 * @param lostExamples          the first lost records' ids, as evidence
 */
public record Reconciliation(
        long records,
        long indexed,
        long lost,
        long pending,
        long duplicated,
        long malformed,
        long malformedToDeadLetter,
        List<String> lostExamples) {

    public Reconciliation {
        lostExamples = List.copyOf(lostExamples);
    }
}
