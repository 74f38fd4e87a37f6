package dev.cabinet.devservices.deployment.devui;

import dev.cabinet.devservices.devui.CabinetJsonRpcService;
import io.quarkus.deployment.IsDevelopment;
import io.quarkus.deployment.annotations.BuildStep;
import io.quarkus.devui.spi.JsonRPCProvidersBuildItem;
import io.quarkus.devui.spi.page.CardPageBuildItem;
import io.quarkus.devui.spi.page.Page;

/**
 * The Cabinet page of the Dev UI (dev mode only): the key plan drawn from build-time data, and the item collections,
 * the log and the projection read live through {@link CabinetJsonRpcService}.
 */
public class CabinetDevUiProcessor {

    @BuildStep(onlyIf = IsDevelopment.class)
    CardPageBuildItem page() {
        CardPageBuildItem card = new CardPageBuildItem();
        // Read on every (re)build, so a changed key plan is drawn anew after live reload.
        card.addBuildTimeData("keyPlan", KeyPlanReader.read(Thread.currentThread().getContextClassLoader()));
        // docs/capacity.md's figures, as the application ships them (JSON text; empty when it has none)
        card.addBuildTimeData("capacity", capacity(Thread.currentThread().getContextClassLoader()));
        card.addPage(Page.webComponentPageBuilder()
                .title("Key plan")
                .icon("font-awesome-solid:table-cells")
                .componentLink("qwc-cabinet-key-plan.js"));
        card.addPage(Page.webComponentPageBuilder()
                .title("Item collections")
                .icon("font-awesome-solid:folder-open")
                .componentLink("qwc-cabinet-items.js"));
        card.addPage(Page.webComponentPageBuilder()
                .title("Log and projection")
                .icon("font-awesome-solid:timeline")
                .componentLink("qwc-cabinet-log.js"));
        return card;
    }

    /** The capacity model's figures the application carries (META-INF/cabinet/capacity.json), or "" when none. */
    static String capacity(ClassLoader loader) {
        try (java.io.InputStream in = loader.getResourceAsStream("META-INF/cabinet/capacity.json")) {
            return in == null ? "" : new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        } catch (java.io.IOException e) {
            return "";
        }
    }

    @BuildStep(onlyIf = IsDevelopment.class)
    JsonRPCProvidersBuildItem jsonRpc() {
        return new JsonRPCProvidersBuildItem(CabinetJsonRpcService.class);
    }
}
