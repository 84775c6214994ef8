# Databricks notebook source
# Backfills late events; runs on the Databricks cluster of resources/events_job.yml.

# COMMAND ----------

spark.sql("""
    ALTER TABLE lake.events
    SET TBLPROPERTIES ('delta.isolationLevel' = 'WriteSerializable')
""")

# COMMAND ----------

late = spark.read.table("lake.late_events")
late.write.format("delta").mode("append").saveAsTable("lake.events")
