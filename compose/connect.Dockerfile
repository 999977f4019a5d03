# The compose stack's Connect worker: the same Kafka as `./kcscale up` (4.3.1), our plugins and the
# JMX exporter agent as the Maven build staged them (`./kcscale build` first). The build context is
# the repository root; connect.Dockerfile.dockerignore sends only what is copied here.
FROM apache/kafka:4.3.1

USER root
# curl for the health check and the init service, envsubst (gettext) to fill configs/ templates
RUN apk add --no-cache curl gettext
COPY connectors/datagen/target/plugin/ /opt/kcscale/plugins/datagen/
COPY connectors/camel-elasticsearch-sink/target/plugin/ /opt/kcscale/plugins/camel-elasticsearch-sink/
COPY local/kafka-runtime/target/jmx-exporter/jmx_prometheus_javaagent.jar /opt/kcscale/jmx_prometheus_javaagent.jar
COPY --chmod=755 compose/bin/ /opt/kcscale/bin/
USER appuser

# the worker.properties placeholder that the image, not compose, knows
ENV PLUGIN_PATH=/opt/kcscale/plugins/datagen,/opt/kcscale/plugins/camel-elasticsearch-sink
EXPOSE 8083 9404
ENTRYPOINT ["/opt/kcscale/bin/connect-worker"]
