package dev.cabinet.eventlog;

import java.time.Duration;
import java.util.Map;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;

import org.apache.kafka.clients.admin.Admin;

import io.smallrye.common.annotation.Identifier;

/**
 * The one admin client an instance asks the broker through (where partitions end, how many a topic has), created on
 * first use: an instance that never asks opens no connection for it.
 */
@ApplicationScoped
public class LogAdmin {

    private final Map<String, Object> kafkaConfig;
    private volatile Admin admin;

    LogAdmin(@Identifier("default-kafka-broker") Map<String, Object> kafkaConfig) {
        this.kafkaConfig = kafkaConfig;
    }

    public Admin admin() {
        if (admin == null) {
            synchronized (this) {
                if (admin == null) {
                    admin = Admin.create(LogReaders.adminConfig(kafkaConfig, "cabinet-log-admin"));
                }
            }
        }
        return admin;
    }

    @PreDestroy
    void close() {
        if (admin != null) {
            admin.close(Duration.ofSeconds(2));
        }
    }
}
