# The compose stack's scaler service: the service jar and its dependencies as the Maven build staged
# them (`./kcscale build` first). The build context is the repository root;
# scaler.Dockerfile.dockerignore sends only what is copied here.
FROM eclipse-temurin:17-jre

COPY scaler/service/target/lib/ /opt/kcscale/scaler/lib/
COPY scaler/service/target/kcscale-scaler-service-*.jar /opt/kcscale/scaler/lib/
# autoscale policies persist in the state directory (a volume in compose)
RUN useradd --system --home-dir /var/lib/kcscale kcscale && install -d -o kcscale /var/lib/kcscale
USER kcscale

EXPOSE 8080
# bound beyond loopback, serve refuses to start without a token: give KCSCALE_TOKEN or --token-file
ENTRYPOINT ["java", "-Xmx256m", "-XX:+ExitOnOutOfMemoryError", "-cp", "/opt/kcscale/scaler/lib/*", "io.kcscale.scaler.service.ServeCommand"]
CMD ["serve", "--bind", "0.0.0.0", "--state-dir", "/var/lib/kcscale"]
