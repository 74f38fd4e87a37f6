package dev.cabinet.support;

import java.util.Collection;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.inject.Singleton;

import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SpanExporter;

/**
 * The spans the application finished most recently, kept in memory for tests (Quarkus exports to every SpanExporter
 * bean). Bounded, because the whole suite shares one application and would otherwise keep every span it ever made.
 */
@Singleton
public class RecentSpans implements SpanExporter {

    private static final int CAPACITY = 50_000;

    private final ConcurrentLinkedDeque<SpanData> spans = new ConcurrentLinkedDeque<>();
    private final AtomicInteger size = new AtomicInteger();

    @Override
    public CompletableResultCode export(Collection<SpanData> batch) {
        for (SpanData span : batch) {
            spans.addLast(span);
            if (size.incrementAndGet() > CAPACITY && spans.pollFirst() != null) {
                size.decrementAndGet();
            }
        }
        return CompletableResultCode.ofSuccess();
    }

    /** The spans of one trace, in the order they finished. */
    public List<SpanData> ofTrace(String traceId) {
        return spans.stream().filter(span -> span.getTraceId().equals(traceId)).toList();
    }

    /** Every span kept, in the order they finished. */
    public List<SpanData> all() {
        return List.copyOf(spans);
    }

    @Override
    public CompletableResultCode flush() {
        return CompletableResultCode.ofSuccess();
    }

    @Override
    public CompletableResultCode shutdown() {
        return CompletableResultCode.ofSuccess();
    }
}
